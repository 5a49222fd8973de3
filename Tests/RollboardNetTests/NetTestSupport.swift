import Foundation
import Logging
import RollboardTestSupport
import Synchronization
@testable import RollboardNet

#if canImport(Glibc)
import Glibc
#endif

/// A fresh temporary folder holding a self-signed certificate and key.
struct TestCertificate {
    let folder: String
    let certificatePath: String
    let keyPath: String

    init() throws {
        folder = NSTemporaryDirectory() + "rollboard-net-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        certificatePath = folder + "/cert.pem"
        keyPath = folder + "/key.pem"
        try SelfSignedCertificate.generate(certificatePath: certificatePath, privateKeyPath: keyPath)
    }

    var configuration: TLSConfiguration {
        TLSConfiguration(certificateChainPath: certificatePath, privateKeyPath: keyPath)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

struct TestClientError: Error, CustomStringConvertible {
    let description: String
}

/// A blocking loopback client for tests: a socket with receive timeouts and, optionally, RollboardNet's own
/// TLS session in the client role pumping bytes over it.
final class TestClient {
    let fd: Int32
    private let tls: TLSConnection?
    private var plaintext: [UInt8] = []
    private var plaintextEOF = false

    /// - Parameter receiveBufferBytes: a small socket receive buffer, set before connecting, makes a client that
    ///   does not read push back on the server sooner.
    init(
        host: String = "127.0.0.1", port: Int, tls context: TLSContext? = nil, timeout: Int = 5,
        receiveBufferBytes: Int32? = nil
    ) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let info = results else {
            throw TestClientError(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(info) }
        fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        var interval = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        if var receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBufferBytes, socklen_t(MemoryLayout<Int32>.size))
        }
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TestClientError(description: "connect: \(reason)")
        }
        tls = try context.map { try TLSConnection(context: $0, isServer: false, serverName: "localhost") }
        if tls != nil {
            do {
                try handshake()
            } catch {
                close(fd)
                throw error
            }
        }
    }

    deinit {
        close(fd)
    }

    var negotiatedProtocol: String? { tls?.negotiatedProtocol }
    var peerCertificate: [UInt8]? { tls?.peerCertificate }
    var protocolVersion: String? { tls?.protocolVersion }

    private func handshake() throws {
        guard let tls else { return }
        while try !tls.handshake() {
            try flushTLS()
            let bytes = try readSocket()
            guard !bytes.isEmpty else { throw TestClientError(description: "server closed during the handshake") }
            bytes.withUnsafeBytes { tls.receiveFromNetwork($0) }
        }
        try flushTLS()
    }

    private func flushTLS() throws {
        while let bytes = tls?.takeNetworkOutput() {
            try writeSocket(bytes)
        }
    }

    private func writeSocket(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestClientError(description: "write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Bytes from the socket; empty at EOF. Throws on timeout.
    private func readSocket() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0 {
            if errno == ECONNRESET { return [] }
            throw TestClientError(description: "read: \(String(cString: strerror(errno)))")
        }
        return Array(buffer[..<count])
    }

    func write(_ bytes: [UInt8]) throws {
        guard let tls else { return try writeSocket(bytes) }
        var ciphertext: [[UInt8]] = []
        try bytes.withUnsafeBytes { raw in
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            defer { scratch.deallocate() }
            try tls.writePlaintext(raw, scratch: scratch) { ciphertext.append(Array($0)) }
        }
        for chunk in ciphertext { try writeSocket(chunk) }
        try flushTLS()
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// The next bytes the server sent; empty once the server closed.
    func read() throws -> [UInt8] {
        if !plaintext.isEmpty {
            defer { plaintext = [] }
            return plaintext
        }
        guard let tls else { return try readSocket() }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { scratch.deallocate() }
        while plaintext.isEmpty, !plaintextEOF {
            let bytes = try readSocket()
            if bytes.isEmpty { break }
            bytes.withUnsafeBytes { tls.receiveFromNetwork($0) }
            let status = try tls.readPlaintext(into: scratch) { plaintext += $0 }
            try flushTLS()
            if status == .closed { plaintextEOF = true }
        }
        defer { plaintext = [] }
        return plaintext
    }

    /// Reads until `predicate` holds for everything read so far (or the server closes).
    func read(until predicate: ([UInt8]) -> Bool) throws -> [UInt8] {
        var received: [UInt8] = []
        while !predicate(received) {
            let bytes = try read()
            if bytes.isEmpty { break }
            received += bytes
        }
        return received
    }

    /// Reads until the server closes the connection; everything read.
    func readToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        while true {
            let bytes = try read()
            if bytes.isEmpty { return received }
            received += bytes
        }
    }
}

/// A connection handler that writes back whatever it reads (raw bytes, no HTTP); each drain is one of `drained`.
final class EchoConnectionHandler: ConnectionHandler {
    private let drained: Changes?

    init(drained: Changes? = nil) {
        self.drained = drained
    }

    func connectionDidBecomeActive(_ connection: Connection) {}
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        connection.send(Array(bytes))
    }
    func connectionDidReadEOF(_ connection: Connection) { connection.close() }
    func connectionDidDrain(_ connection: Connection) { drained?.changed() }
    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {}
    func connectionShouldShutDown(_ connection: Connection) { connection.close() }
    func connectionDidClose(_ connection: Connection) {}
}

/// Runs `body` with a started raw-echo server on port 0, and shuts it down afterwards whatever happens.
func withEchoServer<T>(
    tls: TLSConfiguration? = nil, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Server) throws -> T
) throws -> T {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, tls: tls)
    configure(&configuration)
    let server = Server(configuration: configuration, logger: Logger(label: "test")) { _ in EchoConnectionHandler() }
    try server.start()
    defer { server.shutdown() }
    return try body(server)
}

/// How many file descriptors this process has open.
func openDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// How many of this process's descriptors are sockets whose local port is `port` (a server's listeners and the
/// connections it accepted), so a leak check is not disturbed by tests running in parallel.
func socketDescriptorCount(localPort port: Int) -> Int {
    socketCount(field: 1, port: port)
}

/// How many of this process's descriptors are TCP sockets whose remote port is `port` (client connections to a
/// server on that port).
func clientSocketCount(remotePort port: Int) -> Int {
    socketCount(field: 2, port: port)
}

/// How many of this process's descriptors are TCP sockets whose address in column `field` of /proc's TCP table
/// (1: local, 2: remote) has port `port`.
private func socketCount(field: Int, port: Int) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        for line in readProcFile(table).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let address = fields[field].split(separator: ":").last,
                Int(address, radix: 16) == port
            else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    let folder = "/proc/self/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return entries.filter { entry in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry),
            target.hasPrefix("socket:[")
        else { return false }
        return inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
}

/// The whole of a /proc file: read until the end, as such files report no size and come a page per read
/// (`String(contentsOfFile:)` stops after the first 4 KiB of `/proc/self/net/tcp`).
func readProcFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = read(fd, &chunk, chunk.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A server handler for end-to-end tests: `/echo-body` returns the body, `/slow` and `/fast` answer in the
/// opposite order of arrival, `/twice` responds twice; WebSocket upgrades go to `delegate` unless the path is
/// `/refuse`.
final class TestServerHandler: ServerHandler {
    let delegate: RecordingDelegate
    private let parked = Mutex<[@Sendable (HTTPResponse) -> Void]>([])

    init(delegate: RecordingDelegate = RecordingDelegate()) {
        self.delegate = delegate
    }

    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        switch request.path {
        case "/echo-body":
            respond(HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body))
        case "/slow":
            parked.withLock { $0.append(respond) }
        case "/fast":
            // Answered from another queue before the parked /slow, which is answered afterwards.
            let slow = parked.withLock { $0.popLast() }
            DispatchQueue.global().async {
                respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "fast"))
                slow?(HTTPResponse(status: .ok, contentType: "text/plain", text: "slow"))
            }
        case "/twice":
            respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "first"))
            respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "second"))
        default:
            respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "hello \(request.path)"))
        }
    }

    func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision {
        if request.path == "/refuse" {
            return .refuse(.error(.forbidden, "forbidden", detail: "no sockets here"))
        }
        return .accept(delegate)
    }
}

/// Echoes messages and records what happened, for assertions from the test's thread; each record is one of
/// ``changes``, for a test to wait on.
final class RecordingDelegate: WebSocketDelegate {
    struct Record {
        var opened: [WebSocket] = []
        var closes: [(WebSocketCloseCode?, String)] = []
        var drains = 0
    }

    let record = Mutex(Record())
    let changes = Changes()

    func webSocketDidOpen(_ socket: WebSocket) {
        record.withLock { $0.opened.append(socket) }
        changes.changed()
    }

    func webSocket(_ socket: WebSocket, didReceiveText text: String) {
        if text == "close me" {
            socket.close(code: .policyViolation, reason: "asked to")
        } else {
            socket.send(text: text)
        }
    }

    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {
        socket.send(binary: bytes)
    }

    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
        record.withLock { $0.closes.append((code, reason)) }
        changes.changed()
    }

    func webSocketDidDrain(_ socket: WebSocket) {
        record.withLock { $0.drains += 1 }
        changes.changed()
    }
}

/// Runs `body` with a started `TestServerHandler` server on port 0; shuts it down afterwards whatever happens.
func withTestServer<T>(
    tls: TLSConfiguration? = nil, handler: TestServerHandler = TestServerHandler(),
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Server, TestServerHandler) throws -> T
) throws -> T {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, tls: tls)
    configure(&configuration)
    let server = Server(configuration: configuration, logger: Logger(label: "test"), handler: handler)
    try server.start()
    defer { server.shutdown() }
    return try body(server, handler)
}

/// The responses in `bytes` as (status code, headers text, body), for Content-Length framed responses.
func parseResponses(_ bytes: [UInt8]) -> [(status: Int, head: String, body: String)] {
    var responses: [(Int, String, String)] = []
    var rest = bytes[...]
    while let end = rest.firstRange(of: [13, 10, 13, 10]) {
        let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        let bodyEnd = min(rest.endIndex, end.upperBound + length)
        responses.append((status, head, String(decoding: rest[end.upperBound..<bodyEnd], as: UTF8.self)))
        rest = rest[bodyEnd...]
    }
    return responses
}
