import Foundation
import Logging
import RollboardNet
import RollboardClient

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// The whole Rollboard stack wired as `rollboard serve` wires it — shipped `config/` and `public/`, a durable
/// store, the producer API, the dashboard hubs — on a free port with TLS and a self-signed certificate in the
/// data folder; and blocking clients that talk to it.
///
/// Used from one test at a time; `withLiveServer` stops it whatever the test does.
final class LiveServer {
    /// The producer token every live server accepts.
    static let token = "end-to-end-producer-token-0123456789"
    /// The admin token every live server accepts.
    static let adminToken = "end-to-end-admin-token-0123456789"
    /// The repository root, where the shipped `config/` and `public/` live.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The host clients connect to: a name, so TLS checks it against the certificate.
    let host = "localhost"
    let configuration: RollboardConfiguration
    /// The configuration folder the server was started from (and reloads).
    let configDirectory: String
    let certificatePath: String
    private let node: RollboardNode
    private var sockets: [WebSocketClient] = []
    private var isStopped = false

    /// Starts the stack on `dataDirectory` (created if needed), generating the certificate there on first start;
    /// `dashboardAccess` is the server's default access for the dashboards, and `configDirectory` where they are
    /// (default: the shipped `config/`); with `clock`, the node's hubs and its wall clock run by that manual clock.
    init(
        dataDirectory: String, dashboardAccess: DashboardAccess = .everyone, configDirectory: String? = nil,
        clock: ManualClock? = nil, redis: String? = nil
    ) throws {
        var logger = Logger(label: "rollboard.e2e")
        logger.logLevel = .error
        self.configDirectory = configDirectory ?? Self.repositoryRoot + "/config"
        let loaded = try RollboardConfiguration.load(directory: self.configDirectory)
        var settings = loaded.server
        settings.dataDirectory = dataDirectory
        settings.host = "127.0.0.1"
        settings.port = 0
        settings.dashboardAccess = dashboardAccess
        settings.redis = redis.map { RedisSettings(url: $0) }
        configuration = loaded.replacingServer(settings)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)

        let files = settings.generatedCertificatePaths
        if !FileManager.default.fileExists(atPath: files.certificate) {
            let folder = (files.certificate as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try SelfSignedCertificate.generate(certificatePath: files.certificate, privateKeyPath: files.privateKey)
        }
        certificatePath = files.certificate

        var options = RollboardNode.Options(
            configuration: configuration, fileSettings: loaded.server, configDirectory: self.configDirectory,
            publicDirectory: Self.repositoryRoot + "/public",
            tls: TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.privateKey),
            producerTokens: [ProducerToken(token: Self.token)], adminTokens: [Self.adminToken])
        if let clock { options.clock = clock.nodeClock }
        node = try RollboardNode(options, logger: logger)
        do {
            try node.start()
        } catch {
            node.stop()
            throw error
        }
    }

    /// The port the server listens on.
    var port: Int { node.port }

    /// The node's change log.
    var changeLog: any ChangeLog { node.changeLog }

    /// How many connections the server holds open right now.
    var connectionCount: Int { node.server.connectionCount }

    /// Client TLS that verifies the server against its own certificate file.
    var tls: ClientTLSOptions { ClientTLSOptions(trustedCertificatesPath: certificatePath) }

    /// A WebSocket to `target`, closed by `stop()` if the test leaves it open.
    func webSocket(_ target: String = "/ws?dashboard=demo", headers: HTTPHeaders = [:]) throws -> WebSocketClient {
        let socket = try WebSocketClient(host: host, port: port, target: target, tls: tls, headers: headers, timeout: 5)
        sockets.append(socket)
        return socket
    }

    /// Sends one HTTP request; `token` and `contentType` become headers when given, after `headers`.
    func request(
        _ method: String,
        _ target: String,
        body: [UInt8] = [],
        token: String? = nil,
        contentType: String? = nil,
        accept: String? = nil,
        headers extra: HTTPHeaders = [:]
    ) throws -> HTTPResponse {
        var headers = extra
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        if let accept { headers.add(name: "Accept", value: accept) }
        let client = HTTPClient(host: host, port: port, tls: tls, timeout: 5)
        return try client.send(HTTPRequest(method: method, target: target, headers: headers, body: body))
    }

    /// POSTs a JSON body with the producer token.
    func post(_ target: String, _ json: String) throws -> HTTPResponse {
        try request("POST", target, body: Array(json.utf8), token: Self.token, contentType: "application/json")
    }

    /// Sends a request head exactly as given (plus `Host` unless `headers` has one, and the blank line) on a new
    /// connection and reads the response head and body: for upgrade requests the HTTP client would rewrite.
    func rawRequest(_ requestLine: String, headers: [(String, String)]) throws -> RawResponse {
        let connection = try ClientConnection(host: host, port: port, tls: tls, timeout: 5)
        defer { connection.close() }
        var head = requestLine + "\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: \(host):\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try connection.write(Array((head + "\r\n").utf8))
        var received: [UInt8] = []
        while true {
            if let response = RawResponse(received) { return response }
            let chunk = try connection.read()
            if chunk.isEmpty { throw LiveServerError("the server closed before a complete response") }
            received += chunk
        }
    }

    /// Disconnects every WebSocket still open, closes the screens, shuts the server down and closes the store.
    /// Does nothing the second time.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        for socket in sockets { socket.disconnect() }
        sockets.removeAll()
        node.stop()
    }

    deinit {
        stop()
    }
}

@available(*, unavailable)
extension LiveServer: Sendable {}

/// A response read off the wire: the status code, the headers and the body.
struct RawResponse {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    /// Parses a complete response from `bytes`; `nil` while more bytes are needed.
    init?(_ bytes: [UInt8]) {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: HTTPHeaders = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = status == 101 ? 0 : headers["Content-Length"].flatMap { Int($0) } ?? 0
        let body = bytes[end.upperBound...]
        guard body.count >= length else { return nil }
        self.status = status
        self.headers = headers
        self.body = Array(body.prefix(length))
    }
}

/// Something a live-server test did not get as expected.
struct LiveServerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs `body` against a live server on a fresh data folder, then stops the server and removes the folder,
/// whether `body` returns or throws; with `clock`, the server runs by that manual clock; with `redis` (a URL), its
/// change log is that Redis.
func withLiveServer<Result>(
    dashboardAccess: DashboardAccess = .everyone, extraFiles: [(path: String, text: String)] = [],
    clock: ManualClock? = nil, redis: String? = nil, _ body: (LiveServer) throws -> Result
) throws -> Result {
    let folder = TemporaryDirectory()
    defer { folder.remove() }
    var configDirectory: String?
    if !extraFiles.isEmpty {
        let config = folder.path + "/config"
        try FileManager.default.copyItem(atPath: LiveServer.repositoryRoot + "/config", toPath: config)
        for file in extraFiles {
            let path = config + "/" + file.path
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: path))
        }
        configDirectory = config
    }
    let server = try LiveServer(
        dataDirectory: folder.path + "/data", dashboardAccess: dashboardAccess, configDirectory: configDirectory,
        clock: clock, redis: redis)
    defer { server.stop() }
    return try body(server)
}
