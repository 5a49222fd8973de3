/// Why a text is not a Redis URL; the message names the part at fault (and never contains a password).
public struct RedisURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
