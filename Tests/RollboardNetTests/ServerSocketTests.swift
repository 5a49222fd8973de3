import COpenSSL
import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing
@testable import RollboardNet

/// Runs `body` with an echo server over TLS on a fresh self-signed certificate (its files removed afterwards).
private func withTLSEchoServer(
    configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Server, TestCertificate) throws -> Void
) throws {
    let certificate = try TestCertificate()
    defer { certificate.remove() }
    try withEchoServer(tls: certificate.configuration, configure: configure) { server in try body(server, certificate) }
}

/// Whether `text` sent on `client` comes back whole from the echo server.
private func echoes(_ text: String, on client: TestClient) throws -> Bool {
    try client.write(text)
    return try client.read(until: { $0.count >= text.utf8.count }) == Array(text.utf8)
}

/// The socket and TLS layers over real loopback sockets, with a raw echo handler (no HTTP).
@Suite("Server sockets and TLS", .serialized)
struct ServerSocketTests {
    @Test("learns the real port after binding port 0 and echoes plain bytes")
    func plainEcho() throws {
        try withEchoServer { server in
            #expect(server.localPort > 0)
            let client = try TestClient(port: server.localPort)
            #expect(try echoes("hello", on: client))
        }
    }

    @Test("listens dual-stack on :: for IPv4 and IPv6 clients")
    func dualStack() throws {
        try withEchoServer(configure: { $0.host = "::" }) { server in
            for host in ["127.0.0.1", "::1"] {
                let client = try TestClient(host: host, port: server.localPort)
                #expect(try echoes(host, on: client))
            }
        }
    }

    @Test("counts connections per client address, IPv4 and IPv6 apart, and closes refused ones without a word")
    func perAddressLimitDualStack() throws {
        try withEchoServer(configure: {
            $0.host = "::"
            $0.maxConnectionsPerAddress = 1
        }) { server in
            var first: TestClient? = try TestClient(host: "127.0.0.1", port: server.localPort)
            try first?.write("v4")
            #expect(try first?.read(until: { $0.count >= 2 }) == Array("v4".utf8))
            let refused = try TestClient(host: "127.0.0.1", port: server.localPort)
            #expect(try refused.readToEnd().isEmpty)
            let ipv6 = try TestClient(host: "::1", port: server.localPort)
            #expect(try echoes("v6", on: ipv6))

            first = nil
            #expect(eventuallyBlocking { server.connectionCount == 1 }, "open: \(server.connectionCount)")
            let again = try TestClient(host: "127.0.0.1", port: server.localPort)
            #expect(try echoes("back", on: again))
        }
    }

    @Test("a TLS server closes a connection over the limit without a handshake or a plaintext answer")
    func tlsRefusal() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let configuration = certificate.configuration
        try withTestServer(tls: configuration, configure: { $0.maxConnectionsPerAddress = 1 }) { server, _ in
            let admitted = try TestClient(port: server.localPort, tls: TLSContext())
            try admitted.write("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(parseResponses(try admitted.read(until: { parseResponses($0).count == 1 })).first?.status == 200)
            let raw = try TestClient(port: server.localPort)
            #expect(try raw.readToEnd().isEmpty)
            #expect(throws: TestClientError.self) { _ = try TestClient(port: server.localPort, tls: TLSContext()) }
        }
    }

    @Test("reports a port that is already in use")
    func addressInUse() throws {
        try withEchoServer { server in
            let second = Server(
                configuration: ServerConfiguration(host: "127.0.0.1", port: server.localPort),
                logger: Logger(label: "test")) { _ in EchoConnectionHandler() }
            let error = try #require(throws: ServerError.self) { try second.start() }
            #expect(error.code == .addressInUse)
            #expect(error.detail.contains(String(server.localPort)))
        }
    }

    @Test("fails to start with a clear error when the certificate is missing")
    func missingCertificate() throws {
        let server = Server(
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0,
                tls: TLSConfiguration(certificateChainPath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")),
            logger: Logger(label: "test")) { _ in EchoConnectionHandler() }
        let error = try #require(throws: TLSError.self) { try server.start() }
        #expect(error.code == .missingFile)
        server.shutdown()
    }

    @Test(
        "plain HTTP on the TLS port is answered in clear text with a 400 that says to use https, then closed",
        arguments: ["GET / HTTP/1.1", "POST /api/v1/metrics/x HTTP/1.1", "HEAD /healthz HTTP/1.0"])
    func plainHTTPOnTLSPort(requestLine: String) throws {
        try withTLSEchoServer { server, _ in
            let client = try TestClient(port: server.localPort)
            try client.write(requestLine + "\r\nHost: localhost\r\n\r\n")
            let answer = String(decoding: try client.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(answer.contains("Connection: close"))
            #expect(answer.contains(#""error":"tls_required""#))
            #expect(answer.contains("https://"))
            let tls = try TestClient(port: server.localPort, tls: TLSContext())
            #expect(tls.protocolVersion == "TLSv1.3", "TLS clients are served as before")
        }
    }

    @Test("speaks TLS 1.3 with ALPN http/1.1 over a socket")
    func tlsEcho() throws {
        try withTLSEchoServer { server, _ in
            let client = try TestClient(port: server.localPort, tls: TLSContext())
            #expect(client.protocolVersion == "TLSv1.3")
            #expect(client.negotiatedProtocol == "http/1.1")
            let message = String(repeating: "tls bytes ", count: 10_000)
            #expect(try echoes(message, on: client))
        }
    }

    @Test("a reloaded certificate serves new connections while open ones keep working")
    func reloadsCertificate() throws {
        try withTLSEchoServer { server, certificate in
            let before = try TestClient(port: server.localPort, tls: TLSContext())
            let first = try #require(before.peerCertificate)
            try SelfSignedCertificate.generate(
                certificatePath: certificate.certificatePath, privateKeyPath: certificate.keyPath)
            try server.reloadTLS()
            let after = try TestClient(port: server.localPort, tls: TLSContext())
            #expect(after.peerCertificate != nil)
            #expect(after.peerCertificate != first)
            #expect(try echoes("still here", on: before))
        }
    }

    @Test("a certificate that cannot be loaded is refused and the server keeps the one it has")
    func badReloadKeepsCertificate() throws {
        try withTLSEchoServer { server, certificate in
            let first = try #require(try TestClient(port: server.localPort, tls: TLSContext()).peerCertificate)
            try Data("not a key".utf8).write(to: URL(fileURLWithPath: certificate.keyPath))
            #expect(throws: TLSError.self) { try server.reloadTLS() }
            #expect(try TestClient(port: server.localPort, tls: TLSContext()).peerCertificate == first)
        }
    }

    @Test("refuses a TLS 1.1 client over a socket")
    func refusesTLS11() throws {
        try withTLSEchoServer { server, _ in
            let legacy = try TLSContext(clientMinimumVersion: TLS1_VERSION, maximumVersion: TLS1_1_VERSION)
            #expect(throws: TLSError.self) { _ = try TestClient(port: server.localPort, tls: legacy) }
        }
    }

    @Test("sends close_notify when it closes a TLS connection")
    func closeNotify() throws {
        try withTLSEchoServer { server, _ in
            let client = try TestClient(port: server.localPort, tls: TLSContext())
            #expect(try echoes("bye", on: client))
            shutdown(client.fd, Int32(SHUT_WR))  // the echo handler closes on EOF
            #expect(try client.readToEnd().isEmpty)
        }
    }

    @Test("drops a client that never completes the TLS handshake after the deadline")
    func handshakeDeadline() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withEchoServer(tls: certificate.configuration, configure: { $0.tlsHandshakeTimeout = .milliseconds(200) }) { server in
            let client = try TestClient(port: server.localPort)
            #expect(try client.readToEnd().isEmpty)
        }
    }

    @Test("releases every descriptor after many connections, plain and TLS")
    func noDescriptorLeak() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        for tls in [nil, certificate.configuration] {
            try withEchoServer(tls: tls) { server in
                let context = tls == nil ? nil : try TLSContext()
                let warm = try TestClient(port: server.localPort, tls: context)
                try warm.write("x")
                _ = try warm.read(until: { !$0.isEmpty })
                let before = socketDescriptorCount(localPort: server.localPort)
                #expect(before >= 1)
                for round in 0..<(tls == nil ? 2000 : 300) {
                    let client = try TestClient(port: server.localPort, tls: context)
                    if round % 2 == 0 {
                        try client.write("ping")
                        _ = try client.read(until: { $0.count >= 4 })
                    }
                }
                #expect(eventuallyBlocking { server.connectionCount == 1 })
                #expect(socketDescriptorCount(localPort: server.localPort) <= before)
            }
        }
    }

    @Test("a client that never reads makes its connection unwritable while others carry on")
    func backpressure() throws {
        let connections = Mutex<[Connection]>([])
        let events = Changes()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.outboundHighWatermark = 64 * 1024
        configuration.outboundLowWatermark = 16 * 1024
        let server = Server(configuration: configuration, logger: Logger(label: "test")) { connection in
            connections.withLock { $0.append(connection) }
            events.changed()
            return EchoConnectionHandler(drained: events)
        }
        try server.start()
        defer { server.shutdown() }

        let stuck = try TestClient(port: server.localPort)
        #expect(events.waitBlocking { connections.withLock { $0.count } == 1 })
        let stuckConnection = try #require(connections.withLock { $0.first } as Connection?)
        let flood = [UInt8](repeating: 0x61, count: 1 << 20)
        stuckConnection.queue.async {
            for _ in 0..<8 { stuckConnection.send(flood) }
        }
        stuckConnection.queue.sync {}  // the sends ran; a full buffer turned the connection unwritable at once
        #expect(!stuckConnection.isWritable)
        #expect(stuckConnection.bufferedBytes > 64 * 1024)

        let other = try TestClient(port: server.localPort)
        #expect(try echoes("still served", on: other))

        var drained = 0
        while drained < 8 << 20 {
            let bytes = try stuck.read()
            if bytes.isEmpty { break }
            drained += bytes.count
        }
        #expect(drained == 8 << 20)
        #expect(events.waitBlocking { stuckConnection.isWritable })
    }

    @Test("bytes sent and a close made from the drain callback all reach the peer before the FIN")
    func closeFromDrainCallback() throws {
        // More than the kernel's send buffer takes (at most 4 MiB by default), so some of it waits in ours.
        let first = 16 << 20
        let last = [UInt8](repeating: 0x62, count: 8 << 20 - 4) + Array("done".utf8)
        let handlers = Mutex<[LastWordsHandler]>([])
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.outboundHighWatermark = 256 * 1024
        configuration.outboundLowWatermark = 0  // the drain callback comes only once everything buffered is written
        let server = Server(configuration: configuration, logger: Logger(label: "test")) { _ in
            let handler = LastWordsHandler(first: [UInt8](repeating: 0x61, count: first), last: last)
            handlers.withLock { $0.append(handler) }
            return handler
        }
        try server.start()
        defer { server.shutdown() }

        let client = try TestClient(port: server.localPort, timeout: 20, receiveBufferBytes: 8 * 1024)
        let received = try client.readToEnd()
        let handler = try #require(handlers.withLock { $0.first })
        #expect(handler.drains.load(ordering: .relaxed) == 1)
        #expect(received.count == first + last.count)
        #expect(received.suffix(4) == Array("done".utf8))
    }
}

/// Sends `first` as soon as the connection is up; when that has drained, sends `last` and closes at once.
private final class LastWordsHandler: ConnectionHandler, Sendable {
    let first: [UInt8]
    let last: [UInt8]
    /// How many times the connection drained.
    let drains = Atomic<Int>(0)

    init(first: [UInt8], last: [UInt8]) {
        self.first = first
        self.last = last
    }

    func connectionDidBecomeActive(_ connection: Connection) { connection.send(first) }
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {}
    func connectionDidReadEOF(_ connection: Connection) { connection.close() }
    func connectionDidDrain(_ connection: Connection) {
        guard drains.add(1, ordering: .relaxed).newValue == 1 else { return }
        connection.send(last)
        connection.close()
    }
    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {}
    func connectionShouldShutDown(_ connection: Connection) { connection.close() }
    func connectionDidClose(_ connection: Connection) {}
}
