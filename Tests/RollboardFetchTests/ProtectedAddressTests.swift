import RollboardFetch
import Testing

/// The addresses no redirect may reach: link-local ranges and the well-known cloud metadata services, in every way a
/// URL or a resolver may write them; everything else (loopback, private ranges, public addresses) is not judged.
@Suite("ProtectedAddress")
struct ProtectedAddressTests {
    @Test(
        "link-local and metadata hosts are protected, however written",
        arguments: [
            "169.254.169.254", "169.254.0.1", "169.254.255.255", "169.254.170.2", "100.100.100.200", "168.63.129.16",
            "192.0.0.192", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "[fe80::1]", "[fe80::1%25eth0]",
            "[febf:ffff::1]", "[fd00:ec2::254]", "[fd20:ce::254]", "[fd00:c1::a9fe:a9fe]",
            "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "[64:ff9b::a9fe:a9fe]",
            "metadata.google.internal",
        ])
    func protected(host: String) {
        #expect(ProtectedAddress.contains(host: host))
    }

    @Test(
        "other hosts are not",
        arguments: [
            "127.0.0.1", "[::1]", "10.0.0.1", "192.168.1.1", "169.253.255.255", "169.255.0.0", "100.100.100.201",
            "192.0.0.193", "[fec0::1]", "[fe7f::1]", "[fd00:ec2::253]", "[::ffff:127.0.0.1]", "api.example.com",
            "metadata.test", "8.8.8.8",
        ])
    func unprotected(host: String) {
        #expect(!ProtectedAddress.contains(host: host))
    }
}
