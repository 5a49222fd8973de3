/// A WebSocket close status code (RFC 6455 section 7.4).
public struct WebSocketCloseCode: Sendable, Equatable, Hashable, RawRepresentable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// Rollboard's application code: the requested dashboard does not exist.
    public static let unknownDashboard = WebSocketCloseCode(rawValue: 4404)
    /// Rollboard's application code: the client asked for a protocol version the server does not speak.
    public static let unsupportedProtocol = WebSocketCloseCode(rawValue: 4406)

    /// Whether a peer may send this code in a close frame (RFC 6455 section 7.4.1 and 7.4.2).
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014: true
        case 3000...4999: true
        default: false
        }
    }
}
