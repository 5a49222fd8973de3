/// One reply from Redis (RESP2).
public enum RedisReply: Sendable, Equatable {
    /// A simple string: `+OK`.
    case status(String)
    /// An error the server reported for this command: `-ERR unknown command ...`. The connection stays usable.
    case error(String)
    /// `:42`
    case integer(Int64)
    /// A bulk string, binary-safe: `$5\r\nhello`.
    case bulk([UInt8])
    /// A missing value: `$-1` or `*-1`.
    case null
    /// `*N` followed by N replies.
    case array([RedisReply])

    /// A status, or a bulk string that is valid UTF-8; otherwise `nil`.
    public var string: String? {
        switch self {
        case .status(let text): text
        case .bulk(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The value of an integer reply; otherwise `nil`.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}
