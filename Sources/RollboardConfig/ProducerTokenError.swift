
/// Why the producer token could not be loaded or generated.
public struct ProducerTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
