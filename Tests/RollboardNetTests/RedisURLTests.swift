import Testing

@testable import RollboardNet
@testable import RollboardRedis

@Suite("Redis URL")
struct RedisURLTests {
    static let valid: [(String, RedisURL)] = [
        ("redis://localhost", RedisURL(host: "localhost")),
        ("redis://127.0.0.1:6380/2", RedisURL(host: "127.0.0.1", port: 6380, database: 2)),
        ("rediss://cache.internal:6380", RedisURL(host: "cache.internal", port: 6380, usesTLS: true)),
        ("REDISS://Cache.Internal", RedisURL(host: "Cache.Internal", usesTLS: true)),
        ("redis://:secret@host", RedisURL(host: "host", password: "secret")),
        (
            "redis://alice:secret@host:1/15",
            RedisURL(host: "host", port: 1, username: "alice", password: "secret", database: 15)
        ),
        ("redis://alice@host", RedisURL(host: "host", username: "alice")),
        ("redis://:@host/", RedisURL(host: "host")),
        ("redis://[::1]:6390/1", RedisURL(host: "::1", port: 6390, database: 1)),
        ("rediss://[fe80::1]", RedisURL(host: "fe80::1", usesTLS: true)),
        ("redis://:p%40ss%3Aw%2Fd%25@h", RedisURL(host: "h", password: "p@ss:w/d%")),
        ("redis://us%20er:%E2%9C%93@h:65535", RedisURL(host: "h", port: 65535, username: "us er", password: "✓")),
        ("redis://a:b@c@h", RedisURL(host: "h", username: "a", password: "b@c")),
    ]

    @Test("a valid URL gives host, port, user, password, database and TLS", arguments: valid)
    func parsesValidURL(text: String, expected: RedisURL) throws {
        #expect(try RedisURL(text) == expected)
    }

    static let invalid: [(String, String)] = [
        ("localhost:6379", "missing scheme: a Redis URL starts with redis:// or rediss://"),
        ("redis:/localhost", "missing scheme: a Redis URL starts with redis:// or rediss://"),
        ("http://localhost", "unsupported scheme 'http': expected redis:// or rediss://"),
        ("redis://", "empty host"),
        ("redis://:pw@", "empty host"),
        ("redis://:6379", "empty host"),
        ("redis://[]:6379", "empty host"),
        ("redis://ho st", "invalid character in host 'ho st'"),
        ("redis://host:", "empty port after ':'"),
        ("redis://host:abc", "bad port 'abc': expected a number from 1 to 65535"),
        ("redis://host:0", "bad port '0': expected a number from 1 to 65535"),
        ("redis://host:65536", "bad port '65536': expected a number from 1 to 65535"),
        ("redis://host:+1", "bad port '+1': expected a number from 1 to 65535"),
        ("redis://host:99999999999999999999", "bad port '99999999999999999999': expected a number from 1 to 65535"),
        ("redis://host/abc", "bad database 'abc': expected a number 0 or more after '/'"),
        ("redis://host/-1", "bad database '-1': expected a number 0 or more after '/'"),
        ("redis://host/1/2", "bad database '1/2': expected a number 0 or more after '/'"),
        (
            "redis://host/99999999999999999999",
            "bad database '99999999999999999999': expected a number 0 or more after '/'"
        ),
        ("redis://host?db=1", "unexpected '?': query parameters and fragments are not supported"),
        ("redis://host/1#top", "unexpected '#': query parameters and fragments are not supported"),
        ("redis://::1:6379", "an IPv6 address must be in brackets, e.g. redis://[::1]:6379"),
        ("redis://[::1", "missing ']' after the IPv6 address"),
        ("redis://[::1]x", "unexpected 'x' after the IPv6 address: expected ':PORT' or nothing"),
        ("redis://:p%4@h", "bad percent-encoding in the password: '%' must be followed by two hex digits"),
        ("redis://:p%zz@h", "bad percent-encoding in the password: '%' must be followed by two hex digits"),
        ("redis://u%g0:p@h", "bad percent-encoding in the user name: '%' must be followed by two hex digits"),
        ("redis://:%FF@h", "the password is not UTF-8 once percent-decoded"),
    ]

    @Test("an invalid URL is refused with a message naming the part at fault", arguments: invalid)
    func refusesInvalidURL(text: String, message: String) {
        #expect(throws: RedisURLError(message)) { try RedisURL(text) }
    }

    @Test(
        "no error message repeats the password",
        arguments: [
            "redis://:hunter2@host:abc", "redis://:hunter2%@host", "redis://u:hunter2@[::1", "redis://:hunter2@",
        ])
    func errorsDoNotShowThePassword(text: String) throws {
        let error = try #require(throws: RedisURLError.self) { try RedisURL(text) }
        #expect(!error.message.contains("hunter2"))
    }

    static let redacted: [(String, String)] = [
        ("redis://:hunter2@host", "redis://:***@host:6379/0"),
        ("rediss://alice:hunter2@[::1]:7000/3", "rediss://alice:***@[::1]:7000/3"),
        ("redis://alice@host", "redis://alice@host:6379/0"),
        ("redis://host", "redis://host:6379/0"),
        ("redis://a%40b%3A:hunter2@host", "redis://a%40b%3A:***@host:6379/0"),
    ]

    @Test("the description shows everything but the password", arguments: redacted)
    func descriptionRedactsThePassword(text: String, description: String) throws {
        let url = try RedisURL(text)
        #expect(url.description == description)
        #expect("\(url)" == description)
        #expect(!"\(url)".contains("hunter2"))
    }
}
