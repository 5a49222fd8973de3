import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing
@testable import RollboardNet

/// Answers every request at once with a body of `bodyBytes` that starts with the request's path and a newline, and
/// counts the requests it was handed.
private final class SizedResponseHandler: ServerHandler {
    let bodyBytes: Int
    let handled = Atomic<Int>(0)

    init(bodyBytes: Int) {
        self.bodyBytes = bodyBytes
    }

    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        handled.add(1, ordering: .relaxed)
        var body = Array(request.path.utf8) + [0x0A]
        body += [UInt8](repeating: 0x2E, count: max(0, bodyBytes - body.count))
        respond(HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: body))
    }

    func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision {
        .refuse(.error(.notFound, "not_found", detail: "no sockets here"))
    }
}

/// Runs `body` with an HTTP server on port 0 whose connections it can inspect; shuts it down afterwards.
private func withInspectableServer<T>(
    handler: SizedResponseHandler, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Server, _ connections: () -> [Connection]) throws -> T
) throws -> T {
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
    configure(&configuration)
    let logger = Logger(label: "test")
    let context = ServerContext(configuration: configuration, handler: handler, logger: logger)
    let connections = Mutex<[Connection]>([])
    let server = Server(configuration: configuration, logger: logger) { connection in
        connections.withLock { $0.append(connection) }
        return HTTPConnectionHandler(context: context)
    }
    try server.start()
    defer { server.shutdown() }
    return try body(server) { connections.withLock { $0 } }
}

/// `count` pipelined GETs of `/0`, `/1`, …; the last asks to close the connection.
private func pipelinedRequests(_ count: Int) -> String {
    (0..<count).map { index in
        "GET /\(index) HTTP/1.1\r\nHost: t\r\n" + (index == count - 1 ? "Connection: close\r\n" : "") + "\r\n"
    }.joined()
}

@Suite("HTTP connection handler over sockets", .serialized)
struct HTTPConnectionHandlerTests {
    @Test("a client that pipelines and never reads holds no more than the high watermark and one response")
    func pipelinedWithoutReading() throws {
        let requests = 300
        let handler = SizedResponseHandler(bodyBytes: 64 * 1024)
        let highWatermark = 256 * 1024
        // The close timeout is long here: this test is about the watermark, and a loaded machine (other suites run
        // alongside) can keep the client from reading for longer than the default 5 s.
        try withInspectableServer(
            handler: handler,
            configure: {
                $0.outboundHighWatermark = highWatermark
                $0.closeTimeout = .seconds(60)
            }
        ) { server, connections in
            let client = try TestClient(port: server.localPort, timeout: 20, receiveBufferBytes: 8 * 1024)
            try client.write(pipelinedRequests(requests))
            #expect(eventuallyBlocking { connections().first.map { !$0.isWritable } ?? false })
            let connection = try #require(connections().first)
            let samples = (0..<20).map { _ in
                connection.queue.sync {
                    (buffered: connection.bufferedBytes, handled: handler.handled.load(ordering: .relaxed))
                }
            }
            let mostBuffered = samples.map(\.buffered).max() ?? 0
            #expect(mostBuffered <= highWatermark + 64 * 1024 + 1024, "buffered \(mostBuffered) bytes")
            #expect(samples.allSatisfy { $0.handled < requests }, "handled \(samples.map(\.handled))")

            let responses = parseResponses(try client.readToEnd())
            #expect(responses.count == requests)
            #expect(responses.map { $0.body.prefix { $0 != "\n" } } == (0..<requests).map { "/\($0)" })
        }
    }

    @Test("a client that reads slowly gets every pipelined response, in order")
    func slowReaderGetsEverything() throws {
        let requests = 200
        let handler = SizedResponseHandler(bodyBytes: 32 * 1024)
        try withInspectableServer(
            handler: handler,
            configure: {
                $0.outboundHighWatermark = 64 * 1024
                $0.outboundLowWatermark = 16 * 1024
                $0.closeTimeout = .seconds(60)  // about order and completeness, not the close timeout
            }
        ) { server, _ in
            let client = try TestClient(port: server.localPort, timeout: 20, receiveBufferBytes: 4 * 1024)
            try client.write(pipelinedRequests(requests))
            let responses = parseResponses(try client.readToEnd())
            #expect(responses.map(\.status) == Array(repeating: 200, count: requests))
            #expect(responses.map { $0.body.prefix { $0 != "\n" } } == (0..<requests).map { "/\($0)" })
            #expect(handler.handled.load(ordering: .relaxed) == requests)
        }
    }

    @Test("a slow reader gets the whole last response even when reading it takes longer than the close timeout")
    func slowReaderOfTheLastResponse() throws {
        let bodyBytes = 8 * 1024 * 1024  // more than the kernel buffers hold, so the rest waits in the server
        let handler = SizedResponseHandler(bodyBytes: bodyBytes)
        try withInspectableServer(handler: handler, configure: { $0.closeTimeout = .milliseconds(200) }) { server, _ in
            let client = try TestClient(port: server.localPort, timeout: 20, receiveBufferBytes: 16 * 1024)
            try client.write(pipelinedRequests(1))
            let started = ContinuousClock.now
            var received: [UInt8] = []
            while true {
                let bytes = try client.read()
                if bytes.isEmpty { break }
                received += bytes
                if ContinuousClock.now - started < .seconds(1) { Thread.sleep(forTimeInterval: 0.01) }
            }
            #expect(ContinuousClock.now - started > .milliseconds(600), "read too fast to test the close timeout")
            let responses = parseResponses(received)
            #expect(responses.map(\.status) == [200])
            #expect(responses.first?.body.count == bodyBytes)
        }
    }

    @Test("a client that pipelines requests and never reads is closed after the idle timeout")
    func stuckClientIsClosed() throws {
        let handler = SizedResponseHandler(bodyBytes: 64 * 1024)
        try withInspectableServer(
            handler: handler,
            configure: {
                $0.idleTimeout = .milliseconds(300)
                $0.closeTimeout = .milliseconds(300)
            }
        ) { server, connections in
            let client = try TestClient(port: server.localPort, receiveBufferBytes: 8 * 1024)
            try client.write(pipelinedRequests(300))
            #expect(eventuallyBlocking { connections().first.map { !$0.isWritable } ?? false })
            #expect(eventuallyBlocking { server.connectionCount == 0 }, "open: \(server.connectionCount)")
            #expect(handler.handled.load(ordering: .relaxed) < 300)
        }
    }

    @Test("every response on a TLS connection carries Strict-Transport-Security, and none on a plain one")
    func strictTransportSecurity() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        for tls in [certificate.configuration, nil] {
            try withTestServer(tls: tls) { server, _ in
                let client = try TestClient(port: server.localPort, tls: tls == nil ? nil : try TLSContext())
                try client.write("GET /a HTTP/1.1\r\nHost: t\r\n\r\nGARBAGE\r\n\r\n")
                let responses = parseResponses(try client.readToEnd())
                #expect(responses.map(\.status) == [200, 400])
                for response in responses {
                    #expect(
                        response.head.contains("\r\nStrict-Transport-Security: max-age=31536000") == (tls != nil),
                        "\(response.head)")
                }
            }
        }
    }
}
