public import Foundation

#if canImport(Glibc)
    public import Glibc
#endif

/// A child process for tests (a real `redis-server`, say), started so that it takes nothing from the test process:
/// standard input and output on /dev/null, no other descriptor inherited — Foundation's `Process` lets sockets that
/// other tests open meanwhile leak into the child, which then holds their connections open — and no signal blocked
/// (a child started from a Dispatch thread would otherwise ignore SIGTERM).
public enum ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time: Swift's Glibc module does
    /// not import GNU extensions.
    private static let addCloseFrom: AddCloseFrom? = {
        // A null handle is RTLD_DEFAULT: every loaded library.
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Starts `executable` with `arguments`; its pid.
    public static func spawn(_ executable: String, arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard let addCloseFrom, addCloseFrom(&actions, 3) == 0 else {
            throw Failure(description: "posix_spawn_file_actions_addclosefrom_np is unavailable (glibc < 2.34)")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environment + [nil])
        guard status == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }
}
