import Foundation
import RollboardTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` on a free loopback port, persisting every write (`appendfsync always`) in a folder of its
/// own, that a test can kill and start again on the same port and folder.
///
/// Suites that need one are enabled with `.enabled(if: RedisTestServer.shouldRun)`: without `redis-server` on PATH
/// they are skipped, unless `ROLLBOARD_REQUIRE_REDIS=1` is set (CI sets it), in which case they run and fail.
final class RedisTestServer {
    static let executablePath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/redis-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var shouldRun: Bool {
        executablePath != nil || ProcessInfo.processInfo.environment["ROLLBOARD_REQUIRE_REDIS"] == "1"
    }

    let port: Int
    let folder = TemporaryDirectory()
    /// The running server's pid.
    private var pid: pid_t?

    init() throws {
        port = try LoopbackPort.free()
        try start()
    }

    deinit {
        stop()
        folder.remove()
    }

    /// `redis://127.0.0.1:PORT`.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts the server (again) and waits until it answers.
    func start() throws {
        guard let executable = Self.executablePath else {
            throw RedisTestServerError("redis-server is not on PATH (ROLLBOARD_REQUIRE_REDIS=1 is set)")
        }
        pid = try ChildProcess.spawn(
            executable,
            arguments: [
                "--bind", "127.0.0.1", "--port", "\(port)", "--save", "", "--appendonly", "yes", "--appendfsync",
                "always", "--dir", folder.path, "--daemonize", "no", "--logfile", folder.path + "/redis.log",
                "--stream-node-max-entries", "4",
            ])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if LoopbackPort.accepts(port) { return }
            usleep(20_000)
        }
        throw RedisTestServerError("redis-server did not start listening on \(port)")
    }

    /// Kills the server (SIGKILL: with `appendfsync always` every write it answered is on disk already) and waits
    /// until it is gone.
    func stop() {
        guard let pid else { return }
        self.pid = nil
        guard kill(pid, SIGKILL) == 0 else { return }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

struct RedisTestServerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
