#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolved address an outbound `Connection` connects to.
package struct SocketAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    /// The numeric address and port, for messages: `127.0.0.1:6379`, `[::1]:6379`.
    package var text: String

    /// Resolves `host` (a name or an IP literal) to the addresses to try, in order. Blocks while a name is looked
    /// up; the message of a failure reads `cannot resolve HOST: REASON`.
    package static func resolve(host: String, port: Int) throws(ConnectionFailure) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            let length = min(Int(info.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutableBytes(of: &storage) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
            }
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let numeric =
                getnameinfo(address, info.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0
                ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : host
            let text = numeric.contains(":") ? "[\(numeric)]:\(port)" : "\(numeric):\(port)"
            addresses.append(SocketAddress(storage: storage, length: socklen_t(length), text: text))
        }
        return addresses
    }
}
