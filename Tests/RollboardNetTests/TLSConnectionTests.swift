import COpenSSL
import Testing
@testable import RollboardNet

/// TLS between two `TLSConnection`s in memory: no sockets, bytes moved by the test.
@Suite("TLS connection over memory BIOs")
struct TLSConnectionTests {
    /// Moves ciphertext both ways until neither side produces any; returns whether both finished the handshake.
    private func pump(_ client: TLSConnection, _ server: TLSConnection) throws -> Bool {
        for _ in 0..<20 {
            _ = try client.handshake()
            var moved = false
            while let bytes = client.takeNetworkOutput() {
                bytes.withUnsafeBytes { server.receiveFromNetwork($0) }
                moved = true
            }
            _ = try server.handshake()
            while let bytes = server.takeNetworkOutput() {
                bytes.withUnsafeBytes { client.receiveFromNetwork($0) }
                moved = true
            }
            if !moved { break }
        }
        return try client.handshake() && server.handshake()
    }

    private func readAll(_ connection: TLSConnection) throws -> ([UInt8], TLSConnection.ReadStatus) {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { scratch.deallocate() }
        var received: [UInt8] = []
        let status = try connection.readPlaintext(into: scratch) { received += $0 }
        return (received, status)
    }

    private func transfer(_ from: TLSConnection, to: TLSConnection, _ text: String) throws {
        var ciphertext: [UInt8] = []
        try Array(text.utf8).withUnsafeBytes { raw in
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            defer { scratch.deallocate() }
            try from.writePlaintext(raw, scratch: scratch) { ciphertext += $0 }
        }
        ciphertext.withUnsafeBytes { to.receiveFromNetwork($0) }
    }

    /// Runs `body` with a client connection on `context` and a server connection on a fresh self-signed certificate,
    /// before any handshake; the certificate files are removed afterwards.
    private func withConnections(
        client context: TLSContext, serverName: String? = nil,
        _ body: (_ client: TLSConnection, _ server: TLSConnection) throws -> Void
    ) throws {
        let files = try TestCertificate()
        defer { files.remove() }
        let server = try TLSConnection(context: TLSContext(server: files.configuration))
        let client = try TLSConnection(context: context, isServer: false, serverName: serverName)
        try body(client, server)
    }

    @Test("completes a TLS 1.3 handshake with ALPN http/1.1 and carries data both ways")
    func handshakeAndData() throws {
        try withConnections(client: TLSContext(), serverName: "localhost") { client, server in
            #expect(try pump(client, server))
            #expect(server.protocolVersion == "TLSv1.3")
            #expect(server.negotiatedProtocol == "http/1.1")
            #expect(client.negotiatedProtocol == "http/1.1")

            try transfer(client, to: server, "GET / HTTP/1.1\r\n\r\n")
            #expect(try readAll(server).0 == Array("GET / HTTP/1.1\r\n\r\n".utf8))
            try transfer(server, to: client, "HTTP/1.1 204 No Content\r\n\r\n")
            #expect(try readAll(client).0 == Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        }
    }

    @Test("carries a message larger than one write slice")
    func largeMessage() throws {
        try withConnections(client: TLSContext()) { client, server in
            #expect(try pump(client, server))
            let text = String(repeating: "0123456789abcdef", count: 20_000)
            try transfer(server, to: client, text)
            #expect(try readAll(client).0 == Array(text.utf8))
        }
    }

    @Test("negotiates TLS 1.2 with an AEAD cipher when the client offers no more")
    func tls12() throws {
        try withConnections(client: TLSContext(maximumVersion: TLS1_2_VERSION)) { client, server throws in
            #expect(try pump(client, server))
            #expect(server.protocolVersion == "TLSv1.2")
            #expect(server.cipherName.hasPrefix("ECDHE-"))
            #expect(server.cipherName.contains("GCM") || server.cipherName.contains("CHACHA20"))
        }
    }

    @Test("refuses a client that offers at most TLS 1.1")
    func refusesTLS11() throws {
        try withConnections(client: TLSContext(clientMinimumVersion: TLS1_VERSION, maximumVersion: TLS1_1_VERSION)) {
            client, server throws in
            #expect(throws: TLSError.self) { try pump(client, server) }
        }
    }

    @Test("reports the peer's close_notify as the end of the stream")
    func closeNotify() throws {
        try withConnections(client: TLSContext()) { client, server in
            #expect(try pump(client, server))
            server.shutdown()
            let alert = try #require(server.takeNetworkOutput())
            alert.withUnsafeBytes { client.receiveFromNetwork($0) }
            #expect(try readAll(client).1 == .closed)
        }
    }

    @Test("treats garbage from the network as a failed handshake")
    func garbage() throws {
        let files = try TestCertificate()
        defer { files.remove() }
        let server = try TLSConnection(context: TLSContext(server: files.configuration))
        Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { server.receiveFromNetwork($0) }
        #expect(throws: TLSError.self) { try server.handshake() }
    }
}
