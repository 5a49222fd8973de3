import Foundation
import RollboardTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` for tests, started on a free port on 127.0.0.1 (`--save '' --appendonly no`, in a
/// temporary folder) and killed by `stop()` or when released.
///
/// Suites that need one are enabled with `.enabled(if: RedisServerProcess.shouldRun)`: without `redis-server` on
/// PATH they are skipped, unless `ROLLBOARD_REQUIRE_REDIS=1` is set, in which case they run and fail (CI sets it, so
/// a missing server cannot pass unnoticed).
///
/// Spawned with `posix_spawn` and "close every descriptor from 3" rather than Foundation's `Process`: on Linux,
/// `Process` lists the open descriptors first and closes those in the child, so a socket another test opens in
/// between is inherited by redis-server and never sees its peer's close (seen as flaky HTTP tests).
final class RedisServerProcess {
    /// `redis-server` found on PATH, or `nil`.
    static let executablePath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/redis-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `ROLLBOARD_REQUIRE_REDIS=1`: a missing `redis-server` is a failure, not a reason to skip.
    static let isRequired = ProcessInfo.processInfo.environment["ROLLBOARD_REQUIRE_REDIS"] == "1"

    /// Whether suites that need a server run: it is there, or it is required (and its absence fails them).
    static var shouldRun: Bool { executablePath != nil || isRequired }

    let port: Int
    let folder: String
    let processIdentifier: pid_t
    private var hasExited = false

    /// Starts a server and waits until it accepts connections. With `tlsCertificate` the port speaks TLS only
    /// (`--port 0 --tls-port P`), with that certificate and no client certificates required.
    init(arguments: [String] = [], tlsCertificate: TestCertificate? = nil, bind: [String] = ["127.0.0.1"]) throws {
        guard let executable = Self.executablePath else {
            throw TestClientError(description: "redis-server is not on PATH (and ROLLBOARD_REQUIRE_REDIS=1 is set)")
        }
        port = try LoopbackPort.free()
        folder = NSTemporaryDirectory() + "rollboard-redis-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var all = ["--bind"] + bind + ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        all += ["--dir", folder, "--logfile", folder + "/redis.log"]
        if let tlsCertificate {
            all += ["--port", "0", "--tls-port", "\(port)", "--tls-auth-clients", "no"]
            all += ["--tls-cert-file", tlsCertificate.certificatePath, "--tls-key-file", tlsCertificate.keyPath]
            all += ["--tls-ca-cert-file", tlsCertificate.certificatePath]
        } else {
            all += ["--port", "\(port)"]
        }
        processIdentifier = try ChildProcess.spawn(executable, arguments: all + arguments)
        do {
            try waitUntilListening()
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Kills the server with SIGKILL (no goodbye to its clients) and waits for it to exit.
    func kill() {
        guard !hasExited else { return }
        Glibc.kill(processIdentifier, SIGKILL)
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0, errno == EINTR {}
        hasExited = true
    }

    /// Kills the server if it still runs and removes its folder. Idempotent.
    func stop() {
        kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Whether the server has not exited (reaping it if it has).
    private var isRunning: Bool {
        guard !hasExited else { return false }
        var status: Int32 = 0
        if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier { hasExited = true }
        return !hasExited
    }

    /// The server's log, for failure messages.
    var log: String {
        (try? String(contentsOfFile: folder + "/redis.log", encoding: .utf8)) ?? ""
    }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard isRunning else {
                throw TestClientError(description: "redis-server exited at once: \(log)")
            }
            if LoopbackPort.accepts(port) { return }
            usleep(20_000)
        }
        throw TestClientError(description: "redis-server did not listen on \(port) within 10 s: \(log)")
    }
}

/// How many of this process's descriptors are TCP sockets whose remote port is `port` (client connections to a
/// server on that port), so a leak check is not disturbed by tests running in parallel.
func clientSocketCount(remotePort port: Int) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
        for line in readProcFile(table).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let remote = fields[2].split(separator: ":").last, Int(remote, radix: 16) == port
            else { continue }
            inodes.insert(String(fields[9]))
        }
    }
    let folder = "/proc/self/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return entries.filter { entry in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry),
            target.hasPrefix("socket:[")
        else { return false }
        return inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
}

/// Polls `condition` every 10 ms until it holds or `seconds` pass; returns whether it held.
func waitUntil(within seconds: Double = 5, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes connects to it, and nothing ever answers.
final class SilentListener {
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw TestClientError(description: "cannot listen: \(reason)")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(fd)
    }
}
