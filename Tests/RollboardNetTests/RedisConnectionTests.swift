import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing

@testable import RollboardNet
@testable import RollboardRedis

/// `RedisConnection` against a real `redis-server`, one per test, on a free loopback port. Skipped when
/// `redis-server` is not on PATH, unless `ROLLBOARD_REQUIRE_REDIS=1` is set: then it runs and fails (see
/// `RedisServerProcess.shouldRun`). Serialized so the timing of the timeout tests does not compete with the others.
@Suite("Redis connection against a real redis-server", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisConnectionTests {
    private func connection(
        _ url: String, tls: ClientTLSOptions = ClientTLSOptions(), name: String? = nil, connectTimeout: Double = 2
    ) throws -> RedisConnection {
        let configuration = RedisConnection.Configuration(
            url: try RedisURL(url), tls: tls, connectTimeout: connectTimeout, name: name)
        return RedisConnection(configuration: configuration, logger: Logger(label: "redis-test"))
    }

    /// A connection to `server` that has connected (or the test fails).
    private func connected(
        to server: RedisServerProcess, path: String = "", userInfo: String = "", name: String? = nil
    ) async throws -> RedisConnection {
        let connection = try connection("redis://\(userInfo)127.0.0.1:\(server.port)\(path)", name: name)
        try await connection.connected().get()
        return connection
    }

    /// Runs `body` with a connected connection (named `name`) to a Redis server of its own; both end afterwards.
    private func withConnection(name: String? = nil, _ body: (RedisConnection) async throws -> Void) async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let redis = try await connected(to: server, name: name)
        defer { redis.close() }
        try await body(redis)
    }

    @Test("a value with NUL bytes and CRLF in it comes back from GET exactly as SET stored it")
    func binarySafeRoundTrip() async throws {
        try await withConnection { (redis: RedisConnection) async throws in
            let key: [UInt8] = [0x6b, 0x00, 0x0d, 0x0a, 0x6b]
            let value: [UInt8] = [0x00, 0x0d, 0x0a, 0xff, 0x00] + Array("\r\n$3\r\nGET\r\n*1\r\n".utf8) + [0x0a, 0x0d]
            #expect(try await redis.reply([Array("SET".utf8), key, value]).get() == .status("OK"))
            #expect(try await redis.reply([Array("GET".utf8), key]).get() == .bulk(value))
            #expect(try await redis.reply(["SET", "empty", ""]).get() == .status("OK"))
            #expect(try await redis.reply(["GET", "empty"]).get() == .bulk([]))
            #expect(try await redis.reply(["GET", "missing"]).get() == .null)
            let large = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(try await redis.reply([Array("SET".utf8), Array("large".utf8), large]).get() == .status("OK"))
            #expect(try await redis.reply(["GET", "large"]).get() == .bulk(large))
        }
    }

    @Test("1,000 pipelined INCRs are answered in order")
    func pipelinedIncrementsInOrder() async throws {
        try await withConnection { (redis: RedisConnection) async throws in
            let values = Mutex<[Int64]>([])
            for _ in 0..<1000 {
                redis.send(["INCR", "counter"]) { result in
                    values.withLock { $0.append((try? result.get())?.integerValue ?? -1) }
                }
            }
            // Replies come in order, so once PING is answered every INCR has been.
            #expect(try await redis.reply(["PING"]).get() == .status("PONG"))
            #expect(values.withLock { $0 } == Array(1...1000))
        }
    }

    @Test("an unknown command comes back as an error reply and the connection stays usable")
    func errorReply() async throws {
        try await withConnection { (redis: RedisConnection) async throws in
            let reply = try await redis.reply(["NOSUCHCOMMAND", "x"]).get()
            guard case .error(let message) = reply else {
                Issue.record("expected an error reply, got \(reply)")
                return
            }
            #expect(message.hasPrefix("ERR unknown command"))
            #expect(try await redis.reply(["SET", "n", "1"]).get() == .status("OK"))
            #expect(try await redis.reply(["LPUSH", "n", "x"]).get().string == nil)  // WRONGTYPE, an error reply
            #expect(try await redis.reply(["PING"]).get() == .status("PONG"))
            #expect(redis.isConnected)
        }
    }

    @Test("the right password logs in, a wrong one fails the connect with authFailed")
    func passwordAuthentication() async throws {
        let password = "s3cr:t@/pass"
        let server = try RedisServerProcess(arguments: [
            "--requirepass", password, "--user", "alice", "on", ">wonderland", "~*", "&*", "+@all",
        ])
        defer { server.stop() }

        let redis = try await connected(to: server, userInfo: ":s3cr%3At%40%2Fpass@")
        #expect(try await redis.reply(["PING"]).get() == .status("PONG"))
        redis.close()

        let alice = try await connected(to: server, userInfo: "alice:wonderland@")
        #expect(try await alice.reply(["ACL", "WHOAMI"]).get().string == "alice")
        alice.close()

        let wrong = try connection("redis://:nope-not-it@127.0.0.1:\(server.port)")
        let error = try #require(await wrong.connected().failure)
        #expect(error.kind == .authFailed)
        #expect(error.message.hasPrefix("AUTH was refused"))
        #expect(!error.message.contains("nope-not-it"))
        #expect(!wrong.isConnected)

        let anonymous = try await connected(to: server)
        defer { anonymous.close() }
        #expect(try await anonymous.reply(["GET", "x"]).get().string == nil)  // NOAUTH error reply
    }

    @Test("the database in the URL is selected, and one that does not exist fails the connect")
    func databaseSelection() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let third = try await connected(to: server, path: "/3")
        defer { third.close() }
        let first = try await connected(to: server, path: "/0")
        defer { first.close() }
        #expect(try await third.reply(["SET", "where", "three"]).get() == .status("OK"))
        #expect(try await first.reply(["GET", "where"]).get() == .null)
        #expect(try await third.reply(["GET", "where"]).get().string == "three")
        #expect(try await third.reply(["CLIENT", "INFO"]).get().string?.contains(" db=3 ") == true)

        let missing = try connection("redis://127.0.0.1:\(server.port)/99")
        let error = try #require(await missing.connected().failure)
        #expect(error.kind == .authFailed)
        #expect(error.message.hasPrefix("SELECT was refused"))
    }

    @Test("the configured name is set with CLIENT SETNAME")
    func clientName() async throws {
        try await withConnection(name: "rollboard-test") { (redis: RedisConnection) async throws in
            #expect(try await redis.reply(["CLIENT", "GETNAME"]).get().string == "rollboard-test")
        }
    }

    @Test("XREAD BLOCK on one connection receives what XADD appends on another")
    func streamDeliveredToBlockedReader() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let writer = try await connected(to: server)
        defer { writer.close() }
        let reader = try await connected(to: server)
        defer { reader.close() }

        let delivered = Mutex<Result<RedisReply, RedisError>?>(nil)
        let answered = Changes()
        reader.send(["XREAD", "BLOCK", "10000", "STREAMS", "events", "$"], timeout: 15) { result in
            delivered.withLock { $0 = result }
            answered.changed()
        }
        let blocked = await eventually {
            (try? await writer.reply(["INFO", "clients"]).get().string)?.contains("blocked_clients:1") == true
        }
        #expect(blocked)
        let id = try #require(try await writer.reply(["XADD", "events", "*", "tile", "revenue"]).get().string)
        #expect(await answered.wait { delivered.withLock { $0 != nil } })
        let expected = RedisReply.array([
            .array([
                .bulk(Array("events".utf8)),
                .array([
                    .array([.bulk(Array(id.utf8)), .array([.bulk(Array("tile".utf8)), .bulk(Array("revenue".utf8))])])
                ]),
            ])
        ])
        #expect(try delivered.withLock { $0 }?.get() == expected)
    }

    @Test("a reply that does not come within its timeout closes the connection with timedOut and calls onDisconnect")
    func replyTimeout() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let redis = try await connected(to: server)
        let disconnects = Mutex<[RedisError]>([])
        let answered = Changes()
        redis.onDisconnect { error in
            disconnects.withLock { $0.append(error) }
            answered.changed()
        }

        let started = ContinuousClock.now
        let results = Mutex<[String: Result<RedisReply, RedisError>]>([:])
        redis.send(["BLPOP", "nothing", "10"], timeout: 0.3) { result in
            results.withLock { $0["BLPOP"] = result }
            answered.changed()
        }
        redis.send(["PING"], timeout: 5) { result in  // queued behind it
            results.withLock { $0["PING"] = result }
            answered.changed()
        }
        #expect(await answered.wait { results.withLock { $0.count == 2 } && disconnects.withLock { !$0.isEmpty } })
        let elapsed = ContinuousClock.now - started
        #expect(results.withLock { $0["BLPOP"] }?.failure?.kind == .timedOut)
        #expect(results.withLock { $0["PING"] }?.failure?.kind == .timedOut)
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(3))
        #expect(disconnects.withLock { $0.map(\.kind) } == [.timedOut])
        #expect(!redis.isConnected)
        #expect(await redis.reply(["PING"]).failure?.kind == .closed)
    }

    @Test("a server killed with SIGKILL fails the waiting command and calls onDisconnect")
    func serverKilled() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let redis = try await connected(to: server)
        let probe = try await connected(to: server)
        let disconnects = Mutex<[RedisError]>([])
        let ended = Changes()
        redis.onDisconnect { error in
            disconnects.withLock { $0.append(error) }
            ended.changed()
        }

        let waiting = Mutex<Result<RedisReply, RedisError>?>(nil)
        redis.send(["BLPOP", "nothing", "0"], timeout: 30) { result in
            waiting.withLock { $0 = result }
            ended.changed()
        }
        let blocked = await eventually {
            (try? await probe.reply(["INFO", "clients"]).get().string)?.contains("blocked_clients:1") == true
        }
        #expect(blocked)
        server.kill()

        #expect(await ended.wait { waiting.withLock { $0 != nil } && disconnects.withLock { !$0.isEmpty } })
        #expect(waiting.withLock { $0 }?.failure?.kind == .closed)
        #expect(disconnects.withLock { $0.map(\.kind) } == [.closed])
        #expect(!redis.isConnected)
        probe.close()
    }

    @Test("close fails the waiting command with closed and does not call onDisconnect")
    func closeFailsWaitingCommands() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let redis = try await connected(to: server)
        let disconnects = Mutex<Int>(0)
        redis.onDisconnect { _ in disconnects.withLock { $0 += 1 } }
        let waiting = Mutex<Result<RedisReply, RedisError>?>(nil)
        let answered = Changes()
        redis.send(["BLPOP", "nothing", "0"], timeout: 30) { result in
            waiting.withLock { $0 = result }
            answered.changed()
        }
        redis.close()
        redis.close()
        #expect(await answered.wait { waiting.withLock { $0 != nil } })
        #expect(waiting.withLock { $0 }?.failure?.kind == .closed)
        #expect(!redis.isConnected)
        // Runs on the connection's queue after close() ended it, so a disconnect call would have happened by now.
        #expect(await redis.reply(["PING"]).failure?.kind == .closed)
        #expect(disconnects.withLock { $0 } == 0)
    }

    @Test("commands sent before connect finished or after close fail at once with closed")
    func sendOutsideTheConnection() async throws {
        let server = try RedisServerProcess()
        defer { server.stop() }
        let redis = try connection("redis://127.0.0.1:\(server.port)")
        #expect(await redis.reply(["PING"]).failure?.kind == .closed)
        try await redis.connected().get()
        #expect(redis.isConnected)
        #expect(try await redis.reply(["PING"]).get() == .status("PONG"))
        redis.close()
        #expect(!redis.isConnected)
        #expect(await redis.reply(["PING"]).failure?.kind == .closed)
        #expect(await redis.connected().failure?.kind == .closed)
    }

    @Test("connecting to a port where nothing listens fails fast with connectFailed")
    func connectRefused() async throws {
        let port = try LoopbackPort.free()
        let redis = try connection("redis://127.0.0.1:\(port)")
        let started = ContinuousClock.now
        let error = try #require(await redis.connected().failure)
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(error.kind == .connectFailed)
        #expect(error.message.contains("127.0.0.1:\(port)"))
        #expect(!redis.isConnected)
    }

    @Test("a server that never answers fails the connect once the connect timeout has passed")
    func connectTimeout() async throws {
        let listener = try SilentListener()
        for (url, phase) in [
            ("redis://:password@127.0.0.1:\(listener.port)", "waiting for the replies to the setup commands"),
            ("rediss://127.0.0.1:\(listener.port)", "during the TLS handshake"),
        ] {
            // A second, not less: the loop must see the TCP connect complete before the timeout, even on a machine
            // busy with parallel tests, or the message names no phase.
            let redis = try connection(url, connectTimeout: 1.0)
            let started = ContinuousClock.now
            let error = try #require(await redis.connected().failure)
            let elapsed = ContinuousClock.now - started
            #expect(error.kind == .connectFailed)
            #expect(error.message == "no connection to 127.0.0.1:\(listener.port) within 1.0 s \(phase)")
            #expect(elapsed >= .milliseconds(950) && elapsed < .seconds(4))
            #expect(!redis.isConnected)
        }
        #expect(await eventually { clientSocketCount(remotePort: listener.port) == 0 })
    }

    @Test("closed, timed-out and refused connections leave no socket open and are released")
    func noLeaks() async throws {
        let server = try RedisServerProcess(arguments: ["--requirepass", "right"])
        defer { server.stop() }
        let ended = try await endOneConnectionEachWay(server)
        // Both only ever go one way (a closed socket stays closed, a released connection stays released).
        #expect(await eventually { clientSocketCount(remotePort: server.port) == 0 && ended.allSatisfy { $0.object == nil } })
    }

    private struct WeakReference {
        weak var object: RedisConnection?
    }

    private func endOneConnectionEachWay(_ server: RedisServerProcess) async throws -> [WeakReference] {
        let closed = try await connected(to: server, userInfo: ":right@")
        #expect(try await closed.reply(["PING"]).get() == .status("PONG"))
        closed.close()
        let timedOut = try await connected(to: server, userInfo: ":right@")
        #expect(await timedOut.reply(["BLPOP", "nothing", "10"], timeout: 0.1).failure?.kind == .timedOut)
        let refused = try connection("redis://:wrong@127.0.0.1:\(server.port)")
        #expect(await refused.connected().failure?.kind == .authFailed)
        return [closed, timedOut, refused].map { WeakReference(object: $0) }
    }

    // MARK: TLS

    @Test("rediss:// to localhost connects when the server's self-signed certificate is trusted")
    func tlsTrusted() async throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let server = try RedisServerProcess(tls: (certificate.certificatePath, certificate.keyPath))
        defer { server.stop() }
        let trust = ClientTLSOptions(trustedCertificatesPath: certificate.certificatePath)
        for host in ["localhost", "127.0.0.1"] {
            let redis = try connection("rediss://\(host):\(server.port)/2", tls: trust, name: "tls-client")
            try await redis.connected().get()
            #expect(try await redis.reply(["PING"]).get() == .status("PONG"))
            #expect(try await redis.reply(["CLIENT", "GETNAME"]).get().string == "tls-client")
            let large = (0..<(1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            #expect(try await redis.reply([Array("SET".utf8), Array("large".utf8), large]).get() == .status("OK"))
            #expect(try await redis.reply(["GET", "large"]).get() == .bulk(large))
            redis.close()
        }
    }

    @Test("rediss:// refuses a server whose certificate is not trusted, or not for the host")
    func tlsUntrusted() async throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let server = try RedisServerProcess(tls: (certificate.certificatePath, certificate.keyPath), bind: ["127.0.0.1", "127.0.0.2"])
        defer { server.stop() }

        let systemTrust = try connection("rediss://localhost:\(server.port)")
        let untrusted = try #require(await systemTrust.connected().failure)
        #expect(untrusted.kind == .tlsFailed)
        #expect(untrusted.message.contains("self-signed certificate"))

        let trust = ClientTLSOptions(trustedCertificatesPath: certificate.certificatePath)
        let otherHost = try connection("rediss://127.0.0.2:\(server.port)", tls: trust)
        let mismatch = try #require(await otherHost.connected().failure)
        #expect(mismatch.kind == .tlsFailed)
        #expect(mismatch.message.contains("mismatch"))

        let unverified = try connection(
            "rediss://127.0.0.2:\(server.port)", tls: ClientTLSOptions(verifiesCertificate: false))
        try await unverified.connected().get()
        #expect(try await unverified.reply(["PING"]).get() == .status("PONG"))
        unverified.close()
    }
}

extension RedisConnection {
    /// `connect`, awaited.
    fileprivate func connected() async -> Result<Void, RedisError> {
        await withCheckedContinuation { continuation in connect { continuation.resume(returning: $0) } }
    }

    /// `send`, awaited.
    fileprivate func reply(_ arguments: [[UInt8]], timeout: Double = 5) async -> Result<RedisReply, RedisError> {
        await withCheckedContinuation { continuation in
            send(arguments, timeout: timeout) { continuation.resume(returning: $0) }
        }
    }

    /// `send`, awaited.
    fileprivate func reply(_ arguments: [String], timeout: Double = 5) async -> Result<RedisReply, RedisError> {
        await withCheckedContinuation { continuation in
            send(arguments, timeout: timeout) { continuation.resume(returning: $0) }
        }
    }
}

extension Result {
    /// The error of a failure, or `nil`.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
