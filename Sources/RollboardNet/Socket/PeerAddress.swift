#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client's IP address, as connections are counted per client: an IPv4-mapped IPv6 address (a dual-stack
/// listener's view of an IPv4 client) is the same client as its IPv4 address.
struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    let bytes: [UInt8]

    /// The address of an IPv4 or IPv6 socket address; `nil` for other families.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        let bytes: [UInt8]? = withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                }
            default:
                nil
            }
        }
        guard let bytes else { return nil }
        self.init(bytes: bytes)
    }

    /// The address of 4 (IPv4) or 16 (IPv6) bytes in network order; `nil` for any other length.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4:
            self.bytes = bytes
        case 16 where bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF:
            self.bytes = Array(bytes[12...])
        case 16:
            self.bytes = bytes
        default:
            return nil
        }
    }

    /// `127.0.0.1` or `::1`.
    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { raw in
            _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &text, socklen_t(text.count))
        }
        return nulTerminated(text)
    }
}
