public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` for tests, on a free port of 127.0.0.1 (or the addresses given), in a temporary folder of
/// its own; a test can kill it and start it again on the same port and folder. Killed and its folder removed by
/// `stop()` or when released.
///
/// Suites that need one are enabled with `.enabled(if: RedisServerProcess.shouldRun)`: without `redis-server` on
/// PATH they are skipped, unless `ROLLBOARD_REQUIRE_REDIS=1` is set, in which case they run and fail (CI sets it, so
/// a missing server cannot pass unnoticed). Started with ``ChildProcess``, so it inherits no test's sockets.
public final class RedisServerProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `redis-server` found on PATH, or `nil`.
    public static let executablePath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/redis-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `ROLLBOARD_REQUIRE_REDIS=1`: a missing `redis-server` is a failure, not a reason to skip.
    public static let isRequired = ProcessInfo.processInfo.environment["ROLLBOARD_REQUIRE_REDIS"] == "1"

    /// Whether suites that need a server run: it is there, or it is required (and its absence fails them).
    public static var shouldRun: Bool { executablePath != nil || isRequired }

    public let port: Int
    public let folder: String
    private let arguments: [String]
    /// The running server's pid; `nil` once it was killed.
    public private(set) var processIdentifier: pid_t?

    /// Starts a server and waits until it accepts connections.
    /// - Parameters:
    ///   - arguments: more `redis-server` options.
    ///   - durable: every write it answered is on disk (`--appendonly yes --appendfsync always`), so it survives
    ///     ``kill()`` and ``start()``; otherwise nothing is persisted.
    ///   - tls: a certificate and key in PEM files: the port speaks TLS only, no client certificates required.
    ///   - bind: the addresses it listens on.
    public init(
        arguments: [String] = [], durable: Bool = false, tls: (certificate: String, key: String)? = nil,
        bind: [String] = ["127.0.0.1"]
    ) throws {
        port = try LoopbackPort.free()
        folder = NSTemporaryDirectory() + "rollboard-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var all =
            ["--bind"] + bind + [
                "--save", "", "--daemonize", "no", "--dir", folder, "--logfile", folder + "/redis.log",
            ]
        all += durable ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
        if let tls {
            all += ["--port", "0", "--tls-port", "\(port)", "--tls-auth-clients", "no"]
            all += [
                "--tls-cert-file", tls.certificate, "--tls-key-file", tls.key, "--tls-ca-cert-file", tls.certificate,
            ]
        } else {
            all += ["--port", "\(port)"]
        }
        self.arguments = all + arguments
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// `redis://127.0.0.1:PORT`.
    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts the server (again, after ``kill()``: same port, same folder) and waits until it accepts connections.
    public func start() throws {
        guard let executable = Self.executablePath else {
            throw Failure(description: "redis-server is not on PATH (and ROLLBOARD_REQUIRE_REDIS=1 is set)")
        }
        let pid = try ChildProcess.spawn(executable, arguments: arguments)
        processIdentifier = pid
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                processIdentifier = nil
                throw Failure(description: "redis-server exited at once: \(log)")
            }
            if LoopbackPort.accepts(port) { return }
            usleep(20_000)
        }
        throw Failure(description: "redis-server did not listen on \(port) within 10 s: \(log)")
    }

    /// Kills the server with SIGKILL (no goodbye to its clients) and waits for it to exit; its folder stays, for
    /// ``start()``.
    public func kill() {
        guard let pid = processIdentifier else { return }
        processIdentifier = nil
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Kills the server if it still runs and removes its folder. Idempotent.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The server's log, for failure messages.
    public var log: String {
        (try? String(contentsOfFile: folder + "/redis.log", encoding: .utf8)) ?? ""
    }
}
