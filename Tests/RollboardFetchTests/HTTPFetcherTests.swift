import Foundation
import RollboardFetch
import Testing

/// The libcurl client against a real scripted upstream over loopback (HTTP and HTTPS): answers arrive whole and
/// decoded, and every hostile answer ends within its bound with a failure that says why.
@Suite("HTTPFetcher against a scripted upstream")
struct HTTPFetcherTests {
    static let expectedJSON = #"{"data": {"visitors": [17, 42.5]}, "name": "wall", "flag": true}"#

    /// `/json` plain; `/gzip` the same body gzip-encoded, refused (406) to a client that does not offer gzip.
    @Test("a JSON answer arrives whole and decoded, with its status and media type", arguments: ["/json", "/gzip"])
    func jsonAnswer(path: String) throws {
        let upstream = try ScriptedUpstream()
        let response = try HTTPFetcher.perform(FetchRequest(url: upstream.url(path))).get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedJSON)
        #expect(response.contentType == "application/json")
    }

    @Test("an error status is an answer for the caller to judge, not a transfer failure")
    func errorStatus() throws {
        let upstream = try ScriptedUpstream()
        let response = try HTTPFetcher.perform(FetchRequest(url: upstream.url("/status/503"))).get()
        #expect(response.status == 503)
    }

    @Test("headers are sent as given; a header that could split the request is refused before any transfer")
    func headers() throws {
        let upstream = try ScriptedUpstream()
        let sent = FetchRequest(
            url: upstream.url("/echo-headers"), headers: [FetchHeader(name: "Authorization", value: "Bearer t0k3n")])
        let echoed = try JSONSerialization.jsonObject(with: Data(HTTPFetcher.perform(sent).get().body))
        #expect((echoed as? [String: String])?["authorization"] == "Bearer t0k3n")
        let smuggling = FetchRequest(
            url: upstream.url("/echo-headers"), headers: [FetchHeader(name: "X-A", value: "b\r\nX-Injected: 1")])
        #expect(HTTPFetcher.perform(smuggling) == .failure(.malformedHeader))
    }

    @Test("HTTPS: the self-signed certificate is refused, and accepted once caFile names it")
    func certificates() throws {
        let upstream = try ScriptedUpstream()
        #expect(HTTPFetcher.perform(FetchRequest(url: upstream.secureURL("/json"))) == .failure(.untrustedCertificate))
        let trusted = FetchRequest(url: upstream.secureURL("/json"), caFile: upstream.certificatePath)
        let response = try HTTPFetcher.perform(trusted).get()
        #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedJSON)
    }

    struct HostileCase: Sendable, CustomStringConvertible {
        let path: String
        let timeout: Double
        let lowSpeedSeconds: Double
        let expected: FetchFailure
        /// The failure must arrive within this many seconds.
        let bound: Double
        var description: String { "\(path) → \(expected)" }
    }

    @Test(
        "a hostile upstream is cut off within its bound, with the reason",
        arguments: [
            HostileCase(path: "/endless", timeout: 20, lowSpeedSeconds: 3, expected: .tooLarge(limit: 1 << 20), bound: 10),
            HostileCase(path: "/big", timeout: 20, lowSpeedSeconds: 3, expected: .tooLarge(limit: 1 << 20), bound: 10),
            HostileCase(path: "/trickle", timeout: 30, lowSpeedSeconds: 2, expected: .tooSlow, bound: 10),
            HostileCase(path: "/hang", timeout: 1.5, lowSpeedSeconds: 10, expected: .timedOut(seconds: 1.5), bound: 6),
            HostileCase(path: "/loop", timeout: 20, lowSpeedSeconds: 3, expected: .tooManyRedirects(limit: 5), bound: 10),
            HostileCase(path: "/to-file", timeout: 20, lowSpeedSeconds: 3, expected: .refusedScheme, bound: 10),
        ])
    func hostile(_ hostile: HostileCase) throws {
        let upstream = try ScriptedUpstream()
        let request = FetchRequest(
            url: upstream.url(hostile.path), timeout: hostile.timeout, lowSpeedSeconds: hostile.lowSpeedSeconds)
        let started = ContinuousClock.now
        let result = HTTPFetcher.perform(request)
        let elapsed = ContinuousClock.now - started
        // Compared as failures only: a body of 50 MB would make a long message.
        let failure: FetchFailure? = if case .failure(let failure) = result { failure } else { nil }
        #expect(failure == hostile.expected, "status \((try? result.get())?.status ?? 0)")
        #expect(elapsed < .seconds(hostile.bound), "took \(elapsed)")
    }

    @Test("a URL that is not http or https is refused without being opened")
    func otherSchemes() {
        #expect(HTTPFetcher.perform(FetchRequest(url: "file:///etc/passwd")) == .failure(.refusedScheme))
        #expect(HTTPFetcher.perform(FetchRequest(url: "gopher://127.0.0.1:1/")) == .failure(.refusedScheme))
    }

    @Test("fetch(_:completion:) answers from the fetcher's own queue")
    func asynchronous() async throws {
        let upstream = try ScriptedUpstream()
        let fetcher = HTTPFetcher(label: "test.fetcher")
        let result = await withCheckedContinuation { continuation in
            fetcher.fetch(FetchRequest(url: upstream.url("/json"))) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().status == 200)
    }
}
