
/// Where several nodes share their change log (`redis:` in `server.yaml`, or `serve --redis`): absent, the node
/// keeps its own journal.
public struct RedisSettings: Sendable, Equatable {
    /// `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://` for TLS; empty when `sentinel` finds the primary.
    public var url: String
    /// The Sentinels that find the primary (`redis.sentinels` and `redis.master`), instead of `url`.
    public var sentinel: RedisSentinelSettings?
    /// How many replicas must confirm a change (`WAIT`) before a producer hears `202`; 0: none.
    public var ackReplicas: Int = Defaults.ackReplicas
    /// Seconds `WAIT` waits for them; fewer confirmations by then answer `503 redis_unreplicated`.
    public var ackTimeout: Double = Defaults.ackTimeout
    /// The prefix of every key the nodes use (`{PREFIX}:changes`, `{PREFIX}:latest`, …); nodes that share it act as
    /// one.
    public var keyPrefix: String = Defaults.keyPrefix
    /// About how many changes the stream keeps (`XADD MAXLEN ~`): a node that was away for fewer changes than this
    /// replays every one it missed; one away longer jumps to the latest values.
    public var streamLength: Int = Defaults.streamLength
    /// A PEM file of the certificates that sign the Redis server's (for `rediss://`; default: the system's).
    public var caFile: String?

    public init(url: String, keyPrefix: String = Defaults.keyPrefix, streamLength: Int = Defaults.streamLength, caFile: String? = nil) {
        self.url = url
        self.keyPrefix = keyPrefix
        self.streamLength = streamLength
        self.caFile = caFile
    }
}
