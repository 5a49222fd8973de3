import RollboardRedis

extension RedisSettings {
    static let yamlKeys = [
        "url", "sentinels", "master", "username", "password", "sentinelPassword", "keyPrefix", "streamLength", "caFile",
        "ackReplicas", "ackTimeout",
    ]
    /// The keys that only go with `sentinels` (with `url`, the URL carries the user and password).
    static let sentinelKeys = ["master", "username", "password", "sentinelPassword"]

    /// Reads `redis:` in `server.yaml`: one Redis (`url`) or the Sentinels that watch one (`sentinels` and `master`),
    /// never both; `nil` (the problem reported, naming the field) when it names neither or is wrong about which.
    init?(reader redis: YAMLMappingReader) {
        redis.rejectUnknownKeys(allowed: Self.yamlKeys)
        let url = redis.string("url")
        let hasSentinels = redis.node("sentinels") != nil
        if url != nil, hasSentinels {
            redis.report("sentinels", "cannot be combined with url: give url (one Redis) or sentinels and master")
            return nil
        }
        if url == nil, !hasSentinels {
            redis.report("url", "is required (or sentinels and master, to find the primary through Redis Sentinel)")
            return nil
        }
        if let url {
            for key in Self.sentinelKeys where redis.node(key) != nil {
                redis.report(key, "goes with sentinels; with url, the URL carries the user and password")
            }
            do throws(RedisURLError) {
                _ = try RedisURL(url)
            } catch {
                redis.report("url", error.message)
            }
            self.init(url: url)
        } else {
            guard let sentinel = RedisSentinelSettings(reader: redis) else { return nil }
            self.init(url: "")
            self.sentinel = sentinel
        }
        if let prefix = redis.string("keyPrefix") {
            if prefix.isEmpty || prefix.contains(where: { $0 == "{" || $0 == "}" || $0.isWhitespace }) {
                redis.report("keyPrefix", "must be a non-empty name without braces or spaces")
            } else {
                keyPrefix = prefix
            }
        }
        streamLength = redis.int("streamLength", in: 1_000...100_000_000) ?? streamLength
        caFile = redis.string("caFile")
        ackReplicas = redis.int("ackReplicas", in: 0...100) ?? ackReplicas
        ackTimeout = redis.double("ackTimeout", in: 0.01...60) ?? ackTimeout
    }
}

extension RedisSentinelSettings {
    /// Reads `sentinels`, `master`, `username`, `password` and `sentinelPassword` of `redis:`; `nil` once a problem
    /// was reported.
    init?(reader redis: YAMLMappingReader) {
        guard let sentinels = redis.strings("sentinels") else { return nil }
        var valid = !sentinels.isEmpty
        if sentinels.isEmpty { redis.report("sentinels", "must list at least one Sentinel as HOST:PORT") }
        for (index, sentinel) in sentinels.enumerated() where Self.address(sentinel) == nil {
            redis.report("sentinels[\(index)]", "must be HOST:PORT, e.g. 127.0.0.1:26379, got \"\(sentinel)\"")
            valid = false
        }
        let master = redis.string("master")
        if master == nil {
            redis.report("master", "is required with sentinels: the name the Sentinels monitor the primary under")
        } else if master?.isEmpty == true || master?.contains(where: \.isWhitespace) == true {
            redis.report("master", "must be a non-empty name without spaces")
            valid = false
        }
        var variables: [String: String] = [:]
        for key in ["password", "sentinelPassword"] {
            guard let text = redis.string(key) else { continue }
            guard let variable = WebhookConfiguration.environmentVariable(in: text) else {
                redis.report(key, "must name an environment variable as ${NAME}; the password itself does not belong in a file")
                valid = false
                continue
            }
            variables[key] = variable
        }
        let username = redis.string("username")
        if username?.isEmpty == true || username?.contains(where: \.isWhitespace) == true {
            redis.report("username", "must be a non-empty name without spaces")
            valid = false
        }
        guard valid, let master else { return nil }
        self.init(
            sentinels: sentinels, master: master, username: username, passwordVariable: variables["password"],
            sentinelPasswordVariable: variables["sentinelPassword"])
    }
}
