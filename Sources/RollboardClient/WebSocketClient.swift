public import RollboardNet
/// A blocking WebSocket client (RFC 6455, no extensions) for command-line tools and tests.
///
/// Used from one thread at a time.
public final class WebSocketClient {
    /// One message or event from the server.
    public enum Event: Equatable, Sendable {
        case text(String)
        case binary([UInt8])
        /// The server closed the connection with this code (or none) and reason.
        case closed(code: UInt16?, reason: String)
    }

    private let connection: ClientConnection
    private var buffer: [UInt8]
    private var fragments: [UInt8] = []
    private var fragmentOpcode: UInt8?

    /// The server's 101 response.
    public let handshakeResponse: HTTPResponse

    /// Connects and completes the opening handshake for `target` (e.g. `/ws?dashboard=demo`).
    public init(
        host: String,
        port: Int,
        target: String,
        tls: ClientTLSOptions?,
        headers extraHeaders: HTTPHeaders = [:],
        timeout: Double = 10
    ) throws {
        connection = try ClientConnection(host: host, port: port, tls: tls, timeout: timeout)
        var keyBytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in keyBytes.indices { keyBytes[index] = generator.next() }
        var headers: HTTPHeaders = [
            "Host": host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": base64(keyBytes),
            "Sec-WebSocket-Version": "13",
        ]
        for field in extraHeaders { headers.replaceOrAdd(name: field.name, value: field.value) }
        var head = "GET \(target) HTTP/1.1\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        try connection.write(Array((head + "\r\n").utf8))
        var received: [UInt8] = []
        while true {
            if let end = received.firstRange(of: [13, 10, 13, 10]) {
                let head = Array(received[..<end.upperBound])
                guard let response = try HTTPClient.parseResponse(head, method: "HEAD") else {
                    throw ClientError("malformed handshake response")
                }
                handshakeResponse = response
                buffer = Array(received[end.upperBound...])
                break
            }
            let chunk = try connection.read()
            if chunk.isEmpty { throw ClientError.closedEarly }
            received += chunk
        }
        guard handshakeResponse.status.code == 101 else {
            throw ClientError("upgrade refused with status \(handshakeResponse.status.code)")
        }
    }

    /// Sends a text message in one masked frame.
    public func send(text: String) throws {
        try sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// Sends one masked frame with any opcode, FIN bit and payload (tests use it to send broken frames).
    public func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0, masked: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126:
            frame.append(maskBit | UInt8(payload.count))
        case ..<65_536:
            frame.append(maskBit | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            var generator = SystemRandomNumberGenerator()
            let mask: [UInt8] = (0..<4).map { _ in generator.next() }
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        } else {
            frame += payload
        }
        try connection.write(frame)
    }

    /// Sends a close frame with `code`.
    public func close(code: UInt16 = 1000, reason: String = "") throws {
        try sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Waits for the next message or the close; answers pings on the way.
    public func receive() throws -> Event {
        while true {
            guard let (fin, opcode, payload) = try nextFrame() else {
                return .closed(code: nil, reason: "connection closed without a close frame")
            }
            switch opcode {
            case 0x9:
                try sendFrame(opcode: 0xA, payload: payload)
            case 0xA:
                continue
            case 0x8:
                let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
                let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
                return .closed(code: code, reason: reason)
            case 0x0, 0x1, 0x2:
                if opcode != 0 { fragmentOpcode = opcode }
                fragments += payload
                guard fin, let messageOpcode = fragmentOpcode else { continue }
                let message = fragments
                fragments = []
                fragmentOpcode = nil
                return messageOpcode == 0x1 ? .text(String(decoding: message, as: UTF8.self)) : .binary(message)
            default:
                throw ClientError("unexpected opcode \(opcode)")
            }
        }
    }

    /// Closes the connection without a close handshake.
    public func disconnect() {
        connection.close()
    }

    private func nextFrame() throws -> (fin: Bool, opcode: UInt8, payload: [UInt8])? {
        while true {
            if buffer.count >= 2 {
                var length = Int(buffer[1] & 0x7F)
                var headerLength = 2
                if length == 126, buffer.count >= 4 {
                    length = Int(buffer[2]) << 8 | Int(buffer[3])
                    headerLength = 4
                } else if length == 127, buffer.count >= 10 {
                    length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    headerLength = 10
                }
                let complete = (length < 126 || headerLength > 2) && buffer.count >= headerLength + length
                if complete {
                    let fin = buffer[0] & 0x80 != 0
                    let opcode = buffer[0] & 0x0F
                    let payload = Array(buffer[headerLength..<(headerLength + length)])
                    buffer.removeFirst(headerLength + length)
                    return (fin, opcode, payload)
                }
            }
            let chunk = try connection.read()
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }
}

@available(*, unavailable)
extension WebSocketClient: Sendable {}

/// Standard base64 with padding.
private func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
        for position in 0..<4 {
            output.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: output, as: UTF8.self)
}
