#if canImport(Glibc)
    import Glibc
#endif

/// Addresses a redirect may never reach: link-local ranges and the well-known cloud metadata services, which hand
/// out credentials to anything on the machine that asks (docs/sources.md lists them with their sources). Checked on
/// a redirect's URL before its transfer starts (an address written in the URL, a well-known metadata name) and on
/// every address libcurl is about to open a socket to while following it, so a name that resolves to one is refused
/// before any connection is opened.
public enum ProtectedAddress {
    /// IPv4 ranges as (network, prefix length).
    static let ipv4: [(network: [UInt8], prefix: Int, what: String)] = [
        ([169, 254, 0, 0], 16, "IPv4 link-local (RFC 3927): AWS, Azure, Google Cloud, Oracle, OpenStack… metadata"),
        ([100, 100, 100, 200], 32, "Alibaba Cloud metadata"),
        ([168, 63, 129, 16], 32, "Azure WireServer"),
        ([192, 0, 0, 192], 32, "Oracle Cloud Classic metadata"),
    ]
    /// IPv6 ranges as (network, prefix length).
    static let ipv6: [(network: [UInt8], prefix: Int, what: String)] = [
        ([0xFE, 0x80] + [UInt8](repeating: 0, count: 14), 10, "IPv6 link-local (RFC 4291)"),
        ([0xFD, 0x00, 0x0E, 0xC2] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54], 128, "AWS metadata (IPv6)"),
        ([0xFD, 0x20, 0x00, 0xCE] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54], 128, "Google Cloud metadata (IPv6)"),
        ([0xFD, 0x00, 0x00, 0xC1] + [UInt8](repeating: 0, count: 8) + [0xA9, 0xFE, 0xA9, 0xFE], 128,
         "Oracle Cloud metadata (IPv6)"),
    ]
    /// Names that always mean a metadata service (and resolve to one of the addresses above), refused even when a
    /// proxy would resolve them.
    static let names: Set<String> = ["metadata.google.internal", "metadata.google.internal."]

    /// Whether the host of a URL (as ``FetchURL/host`` gives it: lower case, IPv6 in brackets) is a protected address
    /// or name.
    public static func contains(host: String) -> Bool {
        if names.contains(host) { return true }
        var literal = host
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        if let percent = literal.firstIndex(of: "%") { literal = String(literal[..<percent]) }
        var v4 = in_addr()
        // inet_aton, not inet_pton: it reads every form a resolver does (2852039166, 0xa9fea9fe, 0251.0376.0251.0376).
        if inet_aton(literal, &v4) != 0 { return contains(bytes: withUnsafeBytes(of: v4) { Array($0) }) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 { return contains(bytes: withUnsafeBytes(of: v6) { Array($0) }) }
        return false
    }

    /// Whether an address in network order (4 bytes for IPv4, 16 for IPv6) is protected. An IPv6 address that
    /// carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is
    /// judged by that IPv4 address too.
    public static func contains(bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4:
            return ipv4.contains { matches(bytes, $0.network, prefix: $0.prefix) }
        case 16:
            if ipv6.contains(where: { matches(bytes, $0.network, prefix: $0.prefix) }) { return true }
            let embedded = Array(bytes.suffix(4))
            let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            let compatible = bytes.prefix(12).allSatisfy { $0 == 0 }
            let nat64 = Array(bytes.prefix(12)) == [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8)
            return (mapped || compatible || nat64) && contains(bytes: embedded)
        default:
            return false
        }
    }

    private static func matches(_ bytes: [UInt8], _ network: [UInt8], prefix: Int) -> Bool {
        guard bytes.count == network.count else { return false }
        for bit in 0..<prefix {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if bytes[bit / 8] & mask != network[bit / 8] & mask { return false }
        }
        return true
    }
}
