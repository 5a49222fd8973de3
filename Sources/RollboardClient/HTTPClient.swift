public import RollboardNet
/// A one-request-per-connection HTTP/1.1 client for command-line tools and tests.
public struct HTTPClient: Sendable {
    public var host: String
    public var port: Int
    public var tls: ClientTLSOptions?
    public var timeout: Double

    public init(host: String, port: Int, tls: ClientTLSOptions?, timeout: Double = 10) {
        self.host = host
        self.port = port
        self.tls = tls
        self.timeout = timeout
    }

    /// Sends `request` on a new connection and returns the complete response.
    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let connection = try ClientConnection(host: host, port: port, tls: tls, timeout: timeout)
        defer { connection.close() }
        try connection.write(Self.serialize(request, host: host, port: port))
        var received: [UInt8] = []
        while true {
            if let response = try Self.parseResponse(received, method: request.method) { return response }
            let chunk = try connection.read()
            if chunk.isEmpty {
                if let response = try Self.parseResponse(received, method: request.method, atEnd: true) {
                    return response
                }
                throw ClientError.closedEarly
            }
            received += chunk
        }
    }

    static func serialize(_ request: HTTPRequest, host: String, port: Int) -> [UInt8] {
        var head = "\(request.method) \(request.target) HTTP/1.1\r\n"
        var headers = request.headers
        if !headers.contains("Host") {
            headers.add(name: "Host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            headers.replaceOrAdd(name: "Content-Length", value: String(request.body.count))
        }
        headers.replaceOrAdd(name: "Connection", value: "close")
        for field in headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }

    /// Parses a complete response from `bytes`, or returns `nil` when more bytes are needed.
    static func parseResponse(_ bytes: [UInt8], method: String, atEnd: Bool = false) throws -> HTTPResponse? {
        guard let headEnd = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let head = String(decoding: bytes[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let code = Int(statusLine[1]) else {
            throw ClientError("malformed status line")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw ClientError("malformed header line") }
            headers.add(name: String(line[..<colon]), value: String(line[line.index(after: colon)...].trimmingWhitespace()))
        }
        let status = HTTPStatus(code: code, reason: statusLine.count > 2 ? String(statusLine[2]) : "")
        let body = bytes[headEnd.upperBound...]
        if method == "HEAD" || code == 204 || code == 304 || code < 200 {
            return HTTPResponse(status: status, headers: headers)
        }
        if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            guard body.count >= length else { return nil }
            return HTTPResponse(status: status, headers: headers, body: Array(body.prefix(length)))
        }
        return atEnd ? HTTPResponse(status: status, headers: headers, body: Array(body)) : nil
    }
}
