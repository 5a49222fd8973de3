import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
