import Foundation
import RollboardFetch
import Synchronization
import Testing

/// Redirects against two scripted upstreams on loopback under two names (libcurl's resolve list maps `a.test` and
/// `b.test` to 127.0.0.1): configured headers never reach a host the URL does not name, a redirect to another host is
/// followed only when asked, and a redirect never reaches a link-local or metadata address. Every socket is opened
/// through a check that records it and refuses anything but loopback, so a regression fails here and cannot send a
/// packet to a real address.
@Suite("HTTPFetcher redirects")
struct RedirectPolicyTests {
    static let secrets = [
        FetchHeader(name: "X-Api-Key", value: "key-4711"), FetchHeader(name: "Authorization", value: "Bearer t0k3n"),
    ]

    /// Every address a transfer opened a socket to; refuses all but loopback.
    final class Connections: Sendable {
        private let opened = Mutex<[String]>([])
        var addresses: [String] { opened.withLock { $0 } }
        var nonLoopback: [String] { addresses.filter { $0 != "127.0.0.1" && $0 != "::1" } }

        var check: HTTPFetcher.ConnectionCheck {
            { [self] address in
                opened.withLock { $0.append(address) }
                return address == "127.0.0.1" || address == "::1"
            }
        }
    }

    /// `a.test` on the first upstream's port and `b.test` on the second's, both 127.0.0.1.
    struct Pair {
        let a: ScriptedUpstream
        let b: ScriptedUpstream

        init() throws {
            a = try ScriptedUpstream()
            b = try ScriptedUpstream()
        }

        var resolve: [String] {
            ["a.test:\(a.port):127.0.0.1", "b.test:\(b.port):127.0.0.1", "a.test:\(b.port):127.0.0.1"]
        }

        /// A URL of `a.test` that redirects to `target`.
        func redirect(to target: String, status: Int = 302) -> String {
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            return "http://a.test:\(a.port)/\(status == 307 ? "redirect307" : "redirect")?to=\(encoded)"
        }
    }

    /// What an upstream was asked, oldest first (its own `/seen` excluded).
    static func seen(_ upstream: ScriptedUpstream) throws -> [[String: Any]] {
        let body = try HTTPFetcher.perform(FetchRequest(url: upstream.url("/seen"))).get().body
        return try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]] ?? []
    }

    static func headerNames(_ request: [String: Any]) -> Set<String> {
        Set((request["headers"] as? [String: String] ?? [:]).keys)
    }

    @Test("by default a redirect to another host fails before that host is asked anything")
    func sameHostByDefault() throws {
        let pair = try Pair()
        let connections = Connections()
        let request = FetchRequest(
            url: pair.redirect(to: "http://b.test:\(pair.b.port)/echo-headers"), headers: Self.secrets,
            resolve: pair.resolve)
        #expect(HTTPFetcher.perform(request, connecting: connections.check) == .failure(.redirectToOtherHost("b.test")))
        #expect(try Self.seen(pair.b).isEmpty, "b.test was asked")
        #expect(connections.nonLoopback.isEmpty)
        #expect(connections.addresses.count == 1, "only a.test's connection: \(connections.addresses)")
    }

    @Test("any-host follows the redirect, without a single configured header")
    func anyHostDropsHeaders() throws {
        let pair = try Pair()
        let connections = Connections()
        for status in [302, 307] {
            let request = FetchRequest(
                url: pair.redirect(to: "http://b.test:\(pair.b.port)/echo-headers", status: status),
                headers: Self.secrets, redirects: .anyHost, resolve: pair.resolve)
            let response = try HTTPFetcher.perform(request, connecting: connections.check).get()
            #expect(response.status == 200)
        }
        let asked = try Self.seen(pair.b)
        #expect(asked.count == 2)
        for request in asked {
            #expect(Self.headerNames(request).isDisjoint(with: ["x-api-key", "authorization"]), "\(request)")
        }
        let first = try #require(try Self.seen(pair.a).first)
        #expect(Self.headerNames(first).isSuperset(of: ["x-api-key", "authorization"]), "a.test had them")
        #expect(connections.nonLoopback.isEmpty)
    }

    @Test("a redirect to the same host on another port is followed, with the headers")
    func sameHostFollowed() throws {
        let pair = try Pair()
        let request = FetchRequest(
            url: pair.redirect(to: "http://a.test:\(pair.b.port)/echo-headers"), headers: Self.secrets,
            resolve: pair.resolve)
        let echoed = try JSONSerialization.jsonObject(with: Data(HTTPFetcher.perform(request).get().body))
        #expect((echoed as? [String: String])?["x-api-key"] == "key-4711")
    }

    @Test("redirects: none follows nothing and says so")
    func noRedirects() throws {
        let pair = try Pair()
        let request = FetchRequest(
            url: pair.redirect(to: "http://a.test:\(pair.a.port)/json"), headers: Self.secrets, redirects: .none,
            resolve: pair.resolve)
        #expect(HTTPFetcher.perform(request) == .failure(.redirectNotFollowed(status: 302)))
        #expect(try Self.seen(pair.a).count == 1)
    }

    @Test("https to http on the same host is refused under same-host, and gets no headers under any-host")
    func downgrade() throws {
        let upstream = try ScriptedUpstream()
        let target = upstream.url("/echo-headers").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = upstream.secureURL("/redirect?to=\(target)")
        let strict = FetchRequest(url: url, headers: Self.secrets, caFile: upstream.certificatePath)
        #expect(HTTPFetcher.perform(strict) == .failure(.redirectDowngrade))
        var loose = strict
        loose.redirects = .anyHost
        let echoed = try JSONSerialization.jsonObject(with: Data(HTTPFetcher.perform(loose).get().body))
        #expect((echoed as? [String: String])?["x-api-key"] == nil)
    }

    @Test(
        "a redirect to a name that resolves to a link-local or metadata address is refused before a socket is opened",
        arguments: ["169.254.169.254", "169.254.170.2", "100.100.100.200", "[fe80::1]", "[fd00:ec2::254]", "[::ffff:169.254.169.254]"])
    func protectedByResolution(address: String) throws {
        let upstream = try ScriptedUpstream()
        let connections = Connections()
        let port = upstream.port
        // The first hop finds a.test on 127.0.0.1; the redirect's hop finds a.test:80 (same host) or metadata.test
        // (another) at the protected address.
        let resolve = ["a.test:\(port):127.0.0.1", "a.test:80:\(address)", "metadata.test:80:\(address)"]
        let expected = address.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for (redirects, target) in [(FetchRedirects.sameHost, "http://a.test/json"), (.anyHost, "http://metadata.test/json")] {
            let request = FetchRequest(
                url: "http://a.test:\(port)/redirect?to=\(target)", headers: Self.secrets, redirects: redirects,
                resolve: resolve)
            #expect(HTTPFetcher.perform(request, connecting: connections.check) == .failure(.protectedAddress(expected)))
        }
        #expect(connections.nonLoopback.isEmpty, "a socket was opened to \(connections.nonLoopback)")
        #expect(connections.addresses == ["127.0.0.1", "127.0.0.1"])
    }

    @Test(
        "a redirect that writes a link-local or metadata address is refused before its transfer starts",
        arguments: [
            ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
            ("http://2852039166/", "169.254.169.254"),
            ("http://[fd00:ec2::254]/latest/", "[fd00:ec2::254]"),
            ("http://[fe80::1]:8080/", "[fe80::1]"),
            ("http://100.100.100.200/latest/meta-data/", "100.100.100.200"),
            ("http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal"),
        ])
    func protectedByURL(target: String, host: String) throws {
        let upstream = try ScriptedUpstream()
        let connections = Connections()
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        // No name here is asked of DNS: metadata.google.internal is pinned (to where it really points).
        let request = FetchRequest(
            url: upstream.url("/redirect?to=\(encoded)"), redirects: .anyHost,
            resolve: ["metadata.google.internal:80:169.254.169.254"])
        #expect(HTTPFetcher.perform(request, connecting: connections.check) == .failure(.protectedAddress(host)))
        #expect(connections.addresses == ["127.0.0.1"])
    }

    @Test("the URL's own host is the operator's choice: a first hop is not judged, a redirect's is")
    func firstHopNotJudged() throws {
        let upstream = try ScriptedUpstream()
        let request = FetchRequest(
            url: "http://metadata.test:\(upstream.port)/json", resolve: ["metadata.test:\(upstream.port):127.0.0.1"])
        #expect(try HTTPFetcher.perform(request).get().status == 200)
    }
}
