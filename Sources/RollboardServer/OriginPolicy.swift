import Foundation
package import RollboardAccess
package import RollboardConfig
package import RollboardHub
package import RollboardStore

/// Which browser pages may open a dashboard WebSocket, judged by the request's `Origin` and `Host` headers.
///
/// Requests without `Origin` come from scripts, not browsers, and are allowed. A browser page is allowed when its
/// origin is on the allow-list, or when it is this server's own origin: the server's scheme, a host that is this
/// machine's (an IP address, `localhost`, the machine's host name, the configured listening host) and the very host
/// and port the request was sent to (a `Host` without a port means the scheme's default port). The `Host` header
/// alone is never trusted: a DNS-rebinding page at `attacker.example` has a matching `Host`, but its name is not
/// one of this machine's, so it is refused; pages served under other names need their origin in `allowedOrigins`.
struct OriginPolicy: Sendable {
    private let allowed: Set<String>
    private let allowsAny: Bool
    private let scheme: String
    private let ownNames: Set<String>

    /// - Parameters:
    ///   - allowedOrigins: origins allowed besides the server's own (`*` allows every origin).
    ///   - isSecure: whether the server speaks TLS (its origin is then `https`).
    ///   - listenHost: the configured listening address or name.
    ///   - hostNames: the machine's own names (default: its host name).
    init(allowedOrigins: [String], isSecure: Bool, listenHost: String, hostNames: [String] = OriginPolicy.machineNames)
    {
        allowsAny = allowedOrigins.contains("*")
        allowed = Set(allowedOrigins.map { $0.lowercased() })
        scheme = isSecure ? "https" : "http"
        ownNames = Set((["localhost", listenHost] + hostNames).map { Self.bare($0.lowercased()) })
    }

    /// Why `origin` may not open a WebSocket on a request sent to `host` (its `Host` header), or `nil` when it may.
    func problem(origin: String?, host: String?) -> String? {
        guard let origin else { return nil }
        if allowsAny || allowed.contains(origin.lowercased()) { return nil }
        let refusal = "origin \(origin) is not allowed; add it to allowedOrigins in config/server.yaml"
        guard let page = Self.endpoint(origin), page.path.isEmpty || page.path == "/", page.scheme == scheme,
            let host, let target = Self.endpoint("\(scheme)://\(host)"), target.path.isEmpty
        else { return refusal }
        guard page.host == target.host, page.port == target.port else { return refusal }
        guard Self.isAddress(page.host) || ownNames.contains(page.host) else { return refusal }
        return nil
    }

    /// The machine's host name, as `gethostname` reports it, when it has one.
    static var machineNames: [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? [] : [name]
    }

    private struct Endpoint {
        var scheme: String
        var host: String
        var port: Int
        var path: String
    }

    /// Scheme, lowercased host without brackets, port (the scheme's default when absent) and path of `text`.
    private static func endpoint(_ text: String) -> Endpoint? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, components.user == nil, components.query == nil
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return Endpoint(scheme: scheme, host: bare(host.lowercased()), port: port, path: components.path)
    }

    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// Whether `host` is an IPv4 or IPv6 address: a page at an address literal was served by whoever has that
    /// address, so no DNS answer can make a foreign page look like this server's.
    private static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
