import Foundation
import RollboardTestSupport
import Testing
@testable import RollboardNet

/// Sends `GET path` on `client` and reads its one response.
private func get(_ path: String, on client: TestClient) throws -> (status: Int, head: String, body: String)? {
    try client.write("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
    return parseResponses(try client.read(until: { parseResponses($0).count == 1 })).first
}

/// Runs `body` with a client connected to a started test server configured by `configure`.
private func withClient<T>(
    configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestClient) throws -> T
) throws -> T {
    try withTestServer(configure: configure) { server, _ in try body(TestClient(port: server.localPort)) }
}

/// What a client reads, after sending `request` to a started test server configured by `configure`, until the server
/// closes the connection.
private func readUntilClosed(
    after request: String, configure: (inout ServerConfiguration) -> Void = { _ in }
) throws -> [UInt8] {
    try withClient(configure: configure) { client in
        try client.write(request)
        return try client.readToEnd()
    }
}

/// HTTP/1.1 connection handling over real loopback sockets.
@Suite("Server HTTP over sockets", .serialized)
struct ServerHTTPTests {
    @Test("keeps the connection alive across requests")
    func keepAlive() throws {
        try withClient { client in
            for path in ["/a", "/b", "/c"] {
                try client.write("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\n")
                let bytes = try client.read(until: { parseResponses($0).count == 1 && $0.count > 100 })
                let response = try #require(parseResponses(bytes).first)
                #expect(response.status == 200)
                #expect(response.body == "hello \(path)")
                #expect(!response.head.contains("Connection: close"))
            }
        }
    }

    @Test("answers pipelined requests in order even when the handler answers them out of order")
    func pipelining() throws {
        try withClient { client in
            try client.write(
                "GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\nGET /last HTTP/1.1\r\nHost: t\r\n\r\n")
            let bytes = try client.read(until: { parseResponses($0).count == 3 && parseResponses($0)[2].body == "hello /last" })
            #expect(parseResponses(bytes).map(\.body) == ["slow", "fast", "hello /last"])
        }
    }

    @Test("answers connections beyond maxConnections with 503 and closes them, and takes new ones when others leave")
    func connectionLimit() throws {
        try withTestServer(configure: { $0.maxConnections = 2 }) { server, _ in
            var first: TestClient? = try TestClient(port: server.localPort)
            let second = try TestClient(port: server.localPort)
            try first?.write("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
            try second.write("GET /b HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = try first?.read(until: { parseResponses($0).count == 1 })
            _ = try second.read(until: { parseResponses($0).count == 1 })
            let refusal = parseResponses(try TestClient(port: server.localPort).readToEnd())
            #expect(refusal.map(\.status) == [503])
            #expect(refusal.first?.body.contains("\"too_many_connections\"") == true)
            first = nil
            #expect(eventuallyBlocking { server.connectionCount == 1 }, "open: \(server.connectionCount)")
            #expect(try get("/c", on: TestClient(port: server.localPort))?.body == "hello /c")
        }
    }

    @Test("refuses a client's connections beyond maxConnectionsPerAddress with a JSON 503, until one closes")
    func perAddressLimit() throws {
        try withTestServer(configure: { $0.maxConnectionsPerAddress = 3 }) { server, _ in
            var clients: [TestClient] = []
            for index in 0..<3 {
                let client = try TestClient(port: server.localPort)
                #expect(try get("/\(index)", on: client)?.status == 200)
                clients.append(client)
            }
            let refusal = parseResponses(try TestClient(port: server.localPort).readToEnd())
            #expect(refusal.map(\.status) == [503])
            #expect(refusal.first?.head.contains("Content-Type: application/json") == true)
            #expect(refusal.first?.head.contains("Connection: close") == true)
            #expect(server.connectionCount == 3)

            clients.removeFirst()
            #expect(eventuallyBlocking { server.connectionCount == 2 }, "open: \(server.connectionCount)")
            #expect(try get("/next", on: TestClient(port: server.localPort))?.body == "hello /next")
        }
    }

    @Test("answers over TLS")
    func overTLS() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withTestServer(tls: certificate.configuration) { server, _ in
            let client = try TestClient(port: server.localPort, tls: TLSContext())
            try client.write("POST /echo-body HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello")
            let bytes = try client.read(until: { parseResponses($0).first?.body == "hello" })
            #expect(parseResponses(bytes).first?.status == 200)
        }
    }

    @Test("closes after answering a request that asks for it")
    func connectionClose() throws {
        let responses = parseResponses(
            try readUntilClosed(after: "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"))
        #expect(responses.count == 1)
        #expect(responses.first?.head.contains("Connection: close") == true)
    }

    @Test("leaves the body out of a HEAD response")
    func head() throws {
        let bytes = try readUntilClosed(after: "HEAD /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("Content-Length: 8"))
        #expect(text.hasSuffix("\r\n\r\n"))
    }

    @Test("uses only the first of two responses to one request")
    func respondOnce() throws {
        let bytes = try readUntilClosed(
            after: "GET /twice HTTP/1.1\r\nHost: t\r\n\r\nGET /after HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(parseResponses(bytes).map(\.body) == ["first", "hello /after"])
    }

    @Test("answers a request head that never completes with 408 and closes")
    func slowHead() throws {
        let responses = parseResponses(
            try readUntilClosed(
                after: "GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ", configure: { $0.requestHeadTimeout = .milliseconds(300) }))
        #expect(responses.map(\.status) == [408])
        #expect(responses.first?.head.contains("Connection: close") == true)
    }

    @Test("closes an idle keep-alive connection")
    func idleTimeout() throws {
        let responses = parseResponses(
            try readUntilClosed(after: "GET / HTTP/1.1\r\nHost: t\r\n\r\n", configure: { $0.idleTimeout = .milliseconds(300) }))
        #expect(responses.map(\.status) == [200])
    }

    @Test(
        "answers a broken request with its error and closes",
        arguments: [
            ("GARBAGE\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999\r\n\r\n", 413),
            ("GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "b", count: 17000))\r\n\r\n", 431),
            ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
            ("GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        ])
    func parseErrors(request: String, status: Int) throws {
        let responses = parseResponses(try readUntilClosed(after: request))
        #expect(responses.map(\.status) == [status])
        #expect(responses.first?.head.contains("Connection: close") == true)
        #expect(responses.first?.body.contains("\"error\"") == true)
    }

    @Test("answers 408 only after the responses before it")
    func errorAfterPipelined() throws {
        let bytes = try readUntilClosed(after: "GET /ok HTTP/1.1\r\nHost: t\r\n\r\nGET / HTTP/9.9\r\nHost: t\r\n\r\n")
        #expect(parseResponses(bytes).map(\.status) == [200, 505])
    }
}
