import Foundation
import RollboardTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `Tests/Interop/sources/upstream.py` (Python's standard library only) on free ports of 127.0.0.1: plain HTTP, and
/// HTTPS with a self-signed certificate no system store trusts. Killed when released.
final class ScriptedUpstream {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/sources/upstream.py").path

    let port: Int
    let tlsPort: Int
    let folder: String
    private let pid: pid_t

    /// The self-signed certificate the HTTPS port presents.
    var certificatePath: String { folder + "/cert.pem" }

    init() throws {
        port = try LoopbackPort.free()
        tlsPort = try LoopbackPort.free()
        folder = NSTemporaryDirectory() + "rollboard-upstream-\(UUID().uuidString)"
        pid = try ChildProcess.spawn(
            "/usr/bin/python3",
            arguments: [
                Self.script, "--port", "\(port)", "--tls-port", "\(tlsPort)", "--tls-dir", folder,
            ])
        guard eventuallyBlocking(within: 20, { LoopbackPort.accepts(port) && LoopbackPort.accepts(tlsPort) }) else {
            kill(pid, SIGKILL)
            throw Failure(description: "upstream.py did not listen on \(port) and \(tlsPort)")
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    func secureURL(_ path: String) -> String { "https://127.0.0.1:\(tlsPort)\(path)" }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: folder)
    }
}
