import Foundation

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
    private var process: Process?

    init() throws {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(probe, $0, length)
                _ = getsockname(probe, $0, &length)
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--bind", "127.0.0.1", "--port", "\(port)", "--save", "", "--appendonly", "yes", "--appendfsync", "always",
            "--dir", folder.path, "--daemonize", "no", "--logfile", folder.path + "/redis.log",
            "--stream-node-max-entries", "4",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return }
            usleep(20_000)
        }
        throw RedisTestServerError("redis-server did not start listening on \(port)")
    }

    /// Kills the server (SIGKILL: with `appendfsync always` every write it answered is on disk already) and waits
    /// until it is gone. (A child started from a test inherits blocked signals, so SIGTERM would not reach it; and
    /// `waitUntilExit` can hang when called from a test's task on Linux.)
    func stop() {
        guard let process else { return }
        self.process = nil
        let pid = process.processIdentifier
        guard kill(pid, SIGKILL) == 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid && Self.isRunning(pid) { usleep(2_000) }
    }
}

extension RedisTestServer {
    /// Whether process `pid` exists and has not exited (a zombie waiting to be reaped has).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }
}

struct RedisTestServerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
