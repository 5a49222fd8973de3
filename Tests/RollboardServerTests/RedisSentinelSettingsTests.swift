import Testing
import Yams

@testable import RollboardConfig
@testable import RollboardServer

/// `redis:` with Sentinel and replica acknowledgements, read from `server.yaml`.
@Suite("Redis Sentinel settings")
struct RedisSentinelSettingsTests {
    static func read(_ yaml: String) throws -> (RedisSettings?, [String]) {
        let problems = ConfigurationProblems()
        let settings = ServerSettings(
            node: try #require(try Yams.compose(yaml: yaml)), file: "server.yaml", problems: problems)
        return (settings.redis, problems.lines)
    }

    @Test("sentinels, master, username and ${NAME} passwords describe a primary found through Sentinel")
    func sentinels() throws {
        let (redis, problems) = try Self.read(
            """
            redis:
              sentinels: ["127.0.0.1:26379", "[::1]:26380", "sentinel-3.internal:26381"]
              master: rollboard
              username: app
              password: ${REDIS_PASSWORD}
              sentinelPassword: ${SENTINEL_PASSWORD}
              ackReplicas: 1
              ackTimeout: 0.5
            """)
        #expect(problems.isEmpty, "\(problems)")
        var expected = RedisSettings(url: "")
        expected.sentinel = RedisSentinelSettings(
            sentinels: ["127.0.0.1:26379", "[::1]:26380", "sentinel-3.internal:26381"], master: "rollboard",
            username: "app", passwordVariable: "REDIS_PASSWORD", sentinelPasswordVariable: "SENTINEL_PASSWORD")
        expected.ackReplicas = 1
        expected.ackTimeout = 0.5
        #expect(redis == expected)
    }

    @Test("without them a Redis waits for no replica, and WAIT's timeout is the default")
    func defaults() throws {
        let (redis, problems) = try Self.read("redis:\n  url: redis://cache\n")
        #expect(problems.isEmpty)
        #expect(redis?.sentinel == nil)
        #expect(redis?.ackReplicas == RedisSettings.Defaults.ackReplicas)
        #expect(redis?.ackTimeout == RedisSettings.Defaults.ackTimeout)
    }

    @Test(
        "a wrong redis: is refused with a problem naming the field",
        arguments: [
            ("redis:\n  url: redis://cache\n  sentinels: [\"127.0.0.1:26379\"]\n  master: m\n", "redis.sentinels: cannot be combined with url"),
            ("redis:\n  master: m\n", "redis.url: is required (or sentinels"),
            ("redis:\n  sentinels: [\"127.0.0.1:26379\"]\n", "redis.master: is required with sentinels"),
            ("redis:\n  sentinels: []\n  master: m\n", "redis.sentinels: must list at least one"),
            ("redis:\n  sentinels: [\"127.0.0.1\"]\n  master: m\n", "redis.sentinels[0]: must be HOST:PORT"),
            ("redis:\n  sentinels: [\"a:1\", \"redis://b:2\"]\n  master: m\n", "redis.sentinels[1]: must be HOST:PORT"),
            ("redis:\n  sentinels: [\"a:1\"]\n  master: \"two words\"\n", "redis.master: must be a non-empty name"),
            ("redis:\n  sentinels: [\"a:1\"]\n  master: m\n  password: hunter2\n", "redis.password: must name an environment variable"),
            ("redis:\n  sentinels: [\"a:1\"]\n  master: m\n  sentinelPassword: \"$X\"\n", "redis.sentinelPassword: must name an environment variable"),
            ("redis:\n  url: redis://cache\n  password: ${P}\n", "redis.password: goes with sentinels"),
            ("redis:\n  url: redis://cache\n  master: m\n", "redis.master: goes with sentinels"),
            ("redis:\n  url: redis://cache\n  ackReplicas: -1\n", "redis.ackReplicas"),
            ("redis:\n  url: redis://cache\n  ackTimeout: 0\n", "redis.ackTimeout"),
            ("redis:\n  url: redis://cache\n  sentinel: [\"a:1\"]\n", "redis.sentinel"),
        ])
    func refused(yaml: String, problem: String) throws {
        let (_, problems) = try Self.read(yaml)
        #expect(problems.contains { $0.contains(problem) }, "\(problems)")
    }

    @Test(
        "a password variable that is not set stops the start, naming the field and the variable",
        arguments: [("password", "ROLLBOARD_TEST_UNSET_A"), ("sentinelPassword", "ROLLBOARD_TEST_UNSET_B")])
    func unsetSecret(field: String, variable: String) throws {
        #expect(throws: ConfigurationError(problems: ["redis.\(field): the environment variable \(variable) is not set"])) {
            try RedisSentinelSettings.secret(variable, field: field) { _ in nil }
        }
        #expect(try RedisSentinelSettings.secret(variable, field: field) { _ in "s3cret" } == "s3cret")
        #expect(try RedisSentinelSettings.secret(nil, field: field) { _ in nil } == nil)
    }
}
