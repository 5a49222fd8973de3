import RollboardFetch
import Testing

/// URLs as the fetch reads them (libcurl's parser): scheme, host and port, or why they cannot be fetched.
@Suite("FetchURL")
struct FetchURLTests {
    @Test(
        "an http or https URL gives its lower-cased scheme and host, and its port or the scheme's",
        arguments: [
            ("http://Example.COM/x", "http", "example.com", 80),
            ("HTTPS://api.example.com:8443/v2?a=1", "https", "api.example.com", 8443),
            ("http://[::1]:9090", "http", "[::1]", 9090),
            ("http://127.0.0.1:9090/", "http", "127.0.0.1", 9090),
        ])
    func read(text: String, scheme: String, host: String, port: Int) throws {
        let url = try FetchURL(text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
    }

    @Test(
        "a URL with no host, or not http(s), is refused with the reason",
        arguments: [
            ("http://", FetchFailure.malformedURL), ("http://:80/", .malformedURL), ("https://", .malformedURL),
            ("file:///etc/passwd", .refusedScheme), ("gopher://127.0.0.1:1/", .refusedScheme),
            ("ftp://example.com/", .refusedScheme),
        ])
    func refused(text: String, failure: FetchFailure) {
        #expect(throws: failure) { try FetchURL(text) }
    }

    @Test("headers follow the host and never go from https down to http")
    func sharesHeaders() throws {
        let origin = try FetchURL("https://a.test/")
        #expect(try FetchURL("https://A.test:8443/x").sharesHeaders(with: origin))
        #expect(try !FetchURL("http://a.test/").sharesHeaders(with: origin))
        #expect(try !FetchURL("https://b.test/").sharesHeaders(with: origin))
        #expect(try FetchURL("https://a.test/").sharesHeaders(with: FetchURL("http://a.test/")))
    }
}
