import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing
@testable import RollboardNet
@testable import RollboardClient

/// WebSocket connections over real loopback sockets (plain and TLS), through `Server` and `WebSocket`.
@Suite("Server WebSocket over sockets", .serialized)
struct ServerWebSocketTests {
    @Test("echoes text and binary over TLS and closes cleanly with 1000")
    func echoOverTLS() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withTestServer(tls: certificate.configuration) { server, handler in
            let client = try WebSocketClient(
                host: "127.0.0.1", port: server.localPort, target: "/ws",
                tls: ClientTLSOptions(verifiesCertificate: false))
            try client.send(text: "héllo")
            #expect(try client.receive() == .text("héllo"))
            try client.sendFrame(opcode: 0x2, payload: [0, 1, 2, 255])
            #expect(try client.receive() == .binary([0, 1, 2, 255]))
            try client.close(code: 1000, reason: "done")
            guard case .closed(let code, _) = try client.receive() else {
                Issue.record("expected the close frame echoed")
                return
            }
            #expect(code == 1000)
            #expect(handler.delegate.changes.waitBlocking { handler.delegate.record.withLock { $0.closes.count } == 1 })
            let close = handler.delegate.record.withLock { $0.closes.first }
            #expect(close?.0 == .normalClosure)
            #expect(handler.delegate.record.withLock { $0.opened.first?.request.path } == "/ws")
        }
    }

    @Test(
        "closes with the right code for a bad frame",
        arguments: [
            ("invalid UTF-8", UInt8(0x1), [UInt8]([0xC3, 0x28]), UInt16(1007)),
            ("reserved opcode", UInt8(0x3), [UInt8](), UInt16(1002)),
            ("oversized message", UInt8(0x2), [UInt8](repeating: 7, count: 70_000), UInt16(1009)),
        ])
    func closeCodes(name: String, opcode: UInt8, payload: [UInt8], code: UInt16) throws {
        try withTestServer(configure: { $0.webSocket.maxMessageBytes = 65_536 }) { server, _ in
            let client = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/ws", tls: nil)
            try client.sendFrame(opcode: opcode, payload: payload)
            guard case .closed(let received, _) = try client.receive() else {
                Issue.record("expected a close frame for \(name)")
                return
            }
            #expect(received == code)
        }
    }

    @Test("sends the delegate's close code")
    func serverInitiatedClose() throws {
        try withTestServer { server, _ in
            let client = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/ws", tls: nil)
            try client.send(text: "close me")
            #expect(try client.receive() == .closed(code: 1008, reason: "asked to"))
        }
    }

    @Test("closes open sockets with 1001 when the server shuts down")
    func shutdownGoingAway() throws {
        let server = Server(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), logger: .init(label: "test"),
            handler: TestServerHandler())
        try server.start()
        let client = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/ws", tls: nil)
        try client.send(text: "x")
        #expect(try client.receive() == .text("x"))
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.shutdown()
            stopped.signal()
        }
        guard case .closed(let code, _) = try client.receive() else {
            Issue.record("expected a close frame")
            server.shutdown()
            return
        }
        #expect(code == 1001)
        try client.close(code: 1001)
        client.disconnect()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }

    @Test("a prepared message sent to many sockets on several loops reaches each socket once, in order with its own")
    func sendToMany() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withTestServer(tls: certificate.configuration, configure: { $0.loopCount = 3 }) { server, handler in
            let clients = try (0..<7).map { _ in
                try WebSocketClient(
                    host: "127.0.0.1", port: server.localPort, target: "/ws",
                    tls: ClientTLSOptions(verifiesCertificate: false))
            }
            #expect(handler.delegate.changes.waitBlocking { handler.delegate.record.withLock { $0.opened.count } == clients.count })
            let sockets = handler.delegate.record.withLock { $0.opened }
            #expect(Set(sockets.map { ObjectIdentifier($0.connection.loop) }).count > 1, "the sockets span loops")
            WebSocket.send(PreparedMessage(text: "one"), to: sockets)
            for socket in sockets { socket.send(text: "own") }
            WebSocket.send(PreparedMessage(text: "two"), to: sockets)
            for client in clients {
                #expect(try client.receive() == .text("one"))
                #expect(try client.receive() == .text("own"))
                #expect(try client.receive() == .text("two"))
            }
            for client in clients { client.disconnect() }
        }
    }

    @Test("answers a refused upgrade with the handler's response")
    func refused() throws {
        _ = try withTestServer { server, _ in
            #expect(throws: ClientError.self) {
                _ = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/refuse", tls: nil)
            }
        }
    }

    @Test("answers an unsupported WebSocket version with 426 and the supported version")
    func unsupportedVersion() throws {
        try withTestServer { server, _ in
            let client = try TestClient(port: server.localPort)
            try client.write(
                "GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 12\r\n\r\n")
            let responses = parseResponses(try client.readToEnd())
            #expect(responses.map(\.status) == [426])
            #expect(responses.first?.head.contains("Sec-WebSocket-Version: 13") == true)
        }
    }

    @Test("a socket whose client never reads becomes unwritable and drains later; others are unaffected")
    func backpressure() throws {
        try withTestServer(configure: {
            $0.outboundHighWatermark = 64 * 1024
            $0.outboundLowWatermark = 16 * 1024
        }) { server, handler in
            let stuck = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/ws", tls: nil)
            #expect(handler.delegate.changes.waitBlocking { handler.delegate.record.withLock { $0.opened.count } == 1 })
            let socket = try #require(handler.delegate.record.withLock { $0.opened.first })
            #expect(socket.isWritable)
            let chunk = [UInt8](repeating: 0x42, count: 256 * 1024)
            for _ in 0..<16 { socket.send(binary: chunk) }
            socket.connection.queue.sync {}  // the sends hop to the connection's queue; a full buffer turns it at once
            #expect(!socket.isWritable)
            #expect(socket.bufferedBytes > 64 * 1024)

            let other = try WebSocketClient(host: "127.0.0.1", port: server.localPort, target: "/ws", tls: nil)
            try other.send(text: "unaffected")
            #expect(try other.receive() == .text("unaffected"))

            for _ in 0..<16 {
                #expect(try stuck.receive() == .binary(chunk))
            }
            #expect(handler.delegate.changes.waitBlocking { socket.isWritable })
            #expect(handler.delegate.record.withLock { $0.drains } >= 1)
        }
    }
}
