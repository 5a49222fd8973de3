import RollboardRedis

/// Where the nodes find the Redis primary when Redis Sentinel watches it (`redis.sentinels` and `redis.master` in
/// `server.yaml`, instead of `redis.url`): before every connection the Sentinels are asked in turn for the primary's
/// address, and the node checks that the server there answers `ROLE` as `master` before it writes. See
/// docs/cluster.md, "Redis fails over".
public struct RedisSentinelSettings: Sendable, Equatable {
    /// `HOST:PORT` of each Sentinel, asked in this order (starting with the one that answered last).
    public var sentinels: [String]
    /// The name the Sentinels monitor the primary under (`sentinel monitor NAME HOST PORT QUORUM`).
    public var master: String
    /// The ACL user sent with the password in Redis's `AUTH` (`nil`: the default user).
    public var username: String?
    /// The environment variable that holds Redis's password (`password: ${NAME}`); `nil`: no `AUTH`.
    public var passwordVariable: String?
    /// The environment variable that holds the Sentinels' password (`sentinelPassword: ${NAME}`); `nil`: no `AUTH`.
    public var sentinelPasswordVariable: String?

    public init(
        sentinels: [String], master: String, username: String? = nil, passwordVariable: String? = nil,
        sentinelPasswordVariable: String? = nil
    ) {
        self.sentinels = sentinels
        self.master = master
        self.username = username
        self.passwordVariable = passwordVariable
        self.sentinelPasswordVariable = sentinelPasswordVariable
    }

    /// The host and port of `HOST:PORT` (an IPv6 host in brackets: `[::1]:26379`), or `nil` when `text` is not that.
    public static func address(_ text: String) -> (host: String, port: Int)? {
        guard !text.contains(where: { "@/?#".contains($0) }), text.last?.isNumber == true,
            let colon = text.lastIndex(of: ":"), text[..<colon].last != ":",
            let url = try? RedisURL("redis://" + text)
        else { return nil }
        return (url.host, url.port)
    }

    /// The value of the environment variable `name` (`nil` for no variable); throws when it is unset or empty.
    public static func secret(
        _ name: String?, field: String, environment: (String) -> String?
    ) throws(ConfigurationError) -> String? {
        guard let name else { return nil }
        guard let value = environment(name), !value.isEmpty else {
            throw ConfigurationError(problems: ["redis.\(field): the environment variable \(name) is not set"])
        }
        return value
    }
}
