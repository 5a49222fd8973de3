import Testing
@testable import RollboardNet

#if canImport(Glibc)
import Glibc
#endif

/// The socket address of `text` (an IPv4 or IPv6 literal), as `accept` fills it in.
private func socketAddress(_ text: String) -> sockaddr_storage {
    var storage = sockaddr_storage()
    withUnsafeMutablePointer(to: &storage) { pointer in
        if text.contains(":") {
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                _ = inet_pton(AF_INET6, text, &address.pointee.sin6_addr)
            }
        } else {
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                address.pointee.sin_family = sa_family_t(AF_INET)
                _ = inet_pton(AF_INET, text, &address.pointee.sin_addr)
            }
        }
    }
    return storage
}

@Suite struct PeerAddressTests {
    @Test("an IPv4-mapped IPv6 address is the same client as its IPv4 address")
    func mappedIsIPv4() throws {
        let mapped = try #require(PeerAddress(socketAddress("::ffff:192.0.2.7")))
        let plain = try #require(PeerAddress(socketAddress("192.0.2.7")))
        #expect(mapped == plain)
        #expect(mapped.description == "192.0.2.7")
    }

    @Test("IPv6 addresses keep all 16 bytes and differ from IPv4 ones")
    func ipv6() throws {
        let loopback = try #require(PeerAddress(socketAddress("::1")))
        #expect(loopback.bytes.count == 16)
        #expect(loopback.description == "::1")
        #expect(loopback != PeerAddress(socketAddress("127.0.0.1")))
        #expect(PeerAddress(socketAddress("2001:db8::1")) != PeerAddress(socketAddress("2001:db8::2")))
    }

    @Test("other address families and lengths have no peer address")
    func otherFamilies() {
        var unix = sockaddr_storage()
        unix.ss_family = sa_family_t(AF_UNIX)
        #expect(PeerAddress(unix) == nil)
        #expect(PeerAddress(bytes: [1, 2, 3]) == nil)
    }
}
