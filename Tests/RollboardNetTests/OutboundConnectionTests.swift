import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing

@testable import RollboardNet

#if canImport(Glibc)
    import Glibc
#endif

/// `Connection.connect`: the server's connection code connecting out, over real loopback sockets.
@Suite("Outbound connections", .serialized)
struct OutboundConnectionTests {
    /// A loop whose own tick never comes during a test, so only the instants a test passes to `tick` count.
    private static func quietLoop() -> EventLoop {
        EventLoop(label: "test.outbound", tickInterval: .seconds(3600))
    }

    private static func address(port: Int) throws -> SocketAddress {
        try #require(try SocketAddress.resolve(host: "127.0.0.1", port: port).first)
    }

    @Test(
        "a connecting socket reaches a real listener, says connected before active, and echoes 200 KB both ways",
        arguments: [false, true])
    func echoes(overTLS: Bool) throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withEchoServer(tls: overTLS ? certificate.configuration : nil) { server in
            var session: TLSConnection?
            if overTLS {
                let trust = ClientTLSOptions(trustedCertificatesPath: certificate.certificatePath)
                session = try TLSConnection(
                    context: TLSContext(client: trust), isServer: false, serverName: "localhost",
                    expectedHostName: "localhost")
            }
            let recorder = RecordingConnectionHandler()
            let connection = try Connection.connect(
                to: Self.address(port: server.localPort), loop: Self.quietLoop(), tls: session,
                logger: Logger(label: "test"), handler: recorder)
            #expect(recorder.changes.waitBlocking { recorder.events.contains("active") })
            #expect(recorder.events == ["connected", "active"])
            #expect(recorder.tlsVersion == (overTLS ? "TLSv1.3" : nil))
            let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            connection.execute { $0.send(payload) }
            #expect(recorder.changes.waitBlocking { recorder.received.count >= payload.count })
            #expect(recorder.received == payload)
            connection.execute { $0.close() }
            #expect(recorder.changes.waitBlocking { recorder.events.last == "closed" })
            #expect(recorder.failure == nil)
        }
    }

    @Test("a TLS client refuses the self-signed certificate it was not told to trust, with OpenSSL's reason")
    func untrustedCertificate() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withEchoServer(tls: certificate.configuration) { server in
            let session = try TLSConnection(
                context: TLSContext(client: ClientTLSOptions(trustedCertificatesPath: nil)), isServer: false,
                serverName: "localhost", expectedHostName: "localhost")
            let recorder = RecordingConnectionHandler()
            _ = try Connection.connect(
                to: Self.address(port: server.localPort), loop: Self.quietLoop(), tls: session,
                logger: Logger(label: "test"), handler: recorder)
            #expect(recorder.changes.waitBlocking { recorder.events.last == "closed" })
            #expect(recorder.events == ["connected", "closed"])
            #expect(recorder.failure == .certificateRejected("self-signed certificate"))
        }
    }

    @Test("connecting to a port where nothing listens fails with connectFailed naming the address")
    func refused() throws {
        let port = try LoopbackPort.free()
        let recorder = RecordingConnectionHandler()
        let address = try Self.address(port: port)
        var failure: ConnectionFailure?
        do throws(ConnectionFailure) {
            _ = try Connection.connect(
                to: address, loop: Self.quietLoop(), tls: nil, logger: Logger(label: "test"),
                handler: recorder)
            #expect(recorder.changes.waitBlocking { recorder.events.last == "closed" })
            #expect(recorder.events == ["closed"])
            failure = recorder.failure
        } catch {
            failure = error  // refused at once by connect(2), before any event
        }
        #expect(failure == .connectFailed("cannot connect to 127.0.0.1:\(port): Connection refused"))
    }

    @Test("a connect that hangs is kept until its deadline on the loop's clock, then fails with timedOut")
    func connectTimeout() throws {
        let listener = try FullListener()
        let recorder = RecordingConnectionHandler()
        var options = Connection.Options()
        options.connectTimeout = .seconds(7)
        let started = ContinuousClock.now
        let connection = try Connection.connect(
            to: Self.address(port: listener.port), loop: Self.quietLoop(), tls: nil, options: options,
            logger: Logger(label: "test"), handler: recorder)
        connection.execute { $0.tick(now: started + .seconds(6)) }
        #expect(!recorder.changes.waitBlocking(within: 0.3) { !recorder.events.isEmpty })
        connection.execute { $0.tick(now: .now + .seconds(7)) }
        #expect(recorder.changes.waitBlocking { recorder.events.last == "closed" })
        #expect(recorder.events == ["closed"])
        #expect(recorder.failure == .timedOut("no connection to 127.0.0.1:\(listener.port) within 7.0 seconds"))
    }

    @Test("a peer that resets the connection while bytes are still queued closes it with ioFailed and frees them")
    func peerClosesMidWrite() throws {
        let listener = try AcceptingListener()
        let recorder = RecordingConnectionHandler()
        let connection = try Connection.connect(
            to: Self.address(port: listener.port), loop: Self.quietLoop(), tls: nil, logger: Logger(label: "test"),
            handler: recorder)
        #expect(recorder.changes.waitBlocking { recorder.events.contains("active") })
        let peer = try listener.acceptOne()
        let chunk = [UInt8](repeating: 0x2A, count: 1 << 20)
        for _ in 0..<16 { connection.execute { $0.send(chunk) } }
        connection.queue.sync {}  // the sends ran on the connection's queue
        #expect(connection.bufferedBytes > 0)  // the peer reads nothing: the socket is full
        resetAndClose(peer)
        #expect(recorder.changes.waitBlocking { recorder.events.last == "closed" })
        #expect(recorder.events == ["connected", "active", "closed"])
        guard case .ioFailed(let reason)? = recorder.failure else {
            Issue.record("expected ioFailed, got \(String(describing: recorder.failure))")
            return
        }
        #expect(reason.contains("reset") || reason.contains("Broken pipe"))
        #expect(connection.bufferedBytes == 0)
    }
}

/// Records a connection's events in order, and what it read; each is one of ``changes``, for a test to wait on.
final class RecordingConnectionHandler: ConnectionHandler, @unchecked Sendable {  // State behind a Mutex.
    private struct State {
        var events: [String] = []
        var received: [UInt8] = []
        var failure: ConnectionFailure?
        var tlsVersion: String?
    }

    private let state = Mutex(State())
    let changes = Changes()

    var events: [String] { state.withLock { $0.events } }
    var received: [UInt8] { state.withLock { $0.received } }
    var failure: ConnectionFailure? { state.withLock { $0.failure } }
    var tlsVersion: String? { state.withLock { $0.tlsVersion } }

    /// Records what `update` writes into the state and tells the waiters.
    private func record(_ update: (inout State) -> Void) {
        state.withLock { update(&$0) }
        changes.changed()
    }

    func connectionDidConnect(_ connection: Connection) { record { $0.events.append("connected") } }
    func connectionDidBecomeActive(_ connection: Connection) {
        let version = connection.tlsVersion
        record {
            $0.events.append("active")
            $0.tlsVersion = version
        }
    }
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        record { $0.received.append(contentsOf: bytes) }
    }
    func connectionDidReadEOF(_ connection: Connection) { record { $0.events.append("eof") } }
    func connectionDidDrain(_ connection: Connection) {}
    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {}
    func connectionShouldShutDown(_ connection: Connection) { connection.close() }
    func connectionDidClose(_ connection: Connection) {
        let failure = connection.failure
        record {
            $0.events.append("closed")
            $0.failure = failure
        }
    }
}

/// A listener on 127.0.0.1 whose accept queue is full: its backlog of 0 is taken by connects the test never
/// accepts, so the kernel drops the next SYN and that connect hangs.
final class FullListener {
    let port: Int
    private let fd: Int32
    private var fillers: [Int32] = []

    init() throws {
        (fd, port) = try listeningSocket(backlog: 0)
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = loopbackAddress(port: port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(filler)
        }
    }

    deinit {
        for filler in fillers { close(filler) }
        close(fd)
    }
}

/// A listener on 127.0.0.1 that accepts when asked and never reads.
final class AcceptingListener {
    let port: Int
    private let fd: Int32

    init() throws {
        (fd, port) = try listeningSocket(backlog: 4)
    }

    /// Accepts the connection the kernel has already completed.
    func acceptOne() throws -> Int32 {
        let peer = accept(fd, nil, nil)
        guard peer >= 0 else { throw TestClientError(description: "accept: \(String(cString: strerror(errno)))") }
        return peer
    }

    deinit {
        close(fd)
    }
}

/// Closes `fd` with an RST (SO_LINGER with a zero timeout) rather than a FIN.
func resetAndClose(_ fd: Int32) {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    close(fd)
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// A socket listening on 127.0.0.1 on a free port, and the port.
private func listeningSocket(backlog: Int32) throws -> (Int32, Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard fd >= 0, bound, listen(fd, backlog) == 0 else {
        throw TestClientError(description: "cannot listen: \(String(cString: strerror(errno)))")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
