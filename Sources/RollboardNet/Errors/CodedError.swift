/// An error that says what kind of failure it is (a ``ErrorCode`` of its own domain) and, for a human, the details:
/// ``ServerError`` and ``TLSError`` have this shape, their codes are static members of their own `Code`.
public protocol CodedError: Error, Sendable, Equatable, CustomStringConvertible {
    var code: ErrorCode<Self> { get }
    /// Details for a human.
    var detail: String { get }
}

extension CodedError {
    public var description: String { "\(code): \(detail)" }
}
