public import RollboardConfig
public import RollboardCore
public import RollboardStore
import Synchronization

/// The server's operational counters, rendered for `GET /metrics` in the Prometheus text format.
public final class ServerMetrics: Sendable {
    /// Upper bounds, in seconds, of the store commit and producer write latency histograms' buckets.
    public static let commitLatencyBuckets: [Double] = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1]

    private struct State {
        var connectionCounter: (@Sendable () -> Int)?
        var redisStatistics: (@Sendable () -> RedisStatistics)?
        var sourceStatuses: (@Sendable () -> [SourceStatus])?
        var queueLengths: [String: Int] = [:]
        var webSocketSessions = 0
        var framesSent = 0
        var bytesSent = 0
        var framesSkipped = 0
        var slowClientsClosed = 0
        var postsAccepted = 0
        var postsRefused: [Int: Int] = [:]
        var commitLatency = LatencyHistogram(bounds: ServerMetrics.commitLatencyBuckets)
        var postLatency = LatencyHistogram(bounds: ServerMetrics.commitLatencyBuckets)
        var webhookDeliveries: [String: [WebhookOutcome: Int]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Records a WebSocket session opening (`+1`) or closing (`-1`).
    public func webSocketSessionsChanged(by delta: Int) {
        state.withLock { $0.webSocketSessions += delta }
    }

    /// Tells the metrics where to read the number of open connections (the transport's count).
    public func countConnections(with counter: @escaping @Sendable () -> Int) {
        state.withLock { $0.connectionCounter = counter }
    }

    /// Tells the metrics where to read what the Redis change log measured (nodes that share one).
    public func readRedis(with statistics: @escaping @Sendable () -> RedisStatistics) {
        state.withLock { $0.redisStatistics = statistics }
    }

    /// Tells the metrics where to read the scheduled sources' statuses.
    public func readSources(with statuses: @escaping @Sendable () -> [SourceStatus]) {
        state.withLock { $0.sourceStatuses = statuses }
    }

    /// Records how many changes wait in the tiles' animation queues of dashboard `id`, all its streams together.
    package func queueLength(_ length: Int, dashboard id: String) {
        state.withLock { $0.queueLengths[id] = length }
    }

    /// Records one frame handed to a client's connection.
    public func frameSent(bytes: Int) {
        framesSent(1, bytes: bytes)
    }

    /// Records `count` frames of `bytes` in all handed to clients' connections (one tick's worth, in one lock).
    public func framesSent(_ count: Int, bytes: Int) {
        guard count > 0 else { return }
        state.withLock {
            $0.framesSent += count
            $0.bytesSent += bytes
        }
    }

    /// Records `count` frames not sent in one tick because those clients were over their outbound watermark.
    public func framesSkipped(_ count: Int) {
        guard count > 0 else { return }
        state.withLock { $0.framesSkipped += count }
    }

    /// Records a client closed for staying over its watermark too long.
    public func slowClientClosed() {
        state.withLock { $0.slowClientsClosed += 1 }
    }

    /// Records the outcome of one producer write, answered `seconds` after the server had read it.
    public func postFinished(status: Int, seconds: Double) {
        state.withLock {
            $0.postLatency.record(seconds: seconds)
            if (200..<300).contains(status) {
                $0.postsAccepted += 1
            } else {
                $0.postsRefused[status, default: 0] += 1
            }
        }
    }

    /// Records how a delivery to webhook `id` (a configured one: unknown ids are not counted) was answered.
    public func webhookDelivered(_ id: String, outcome: WebhookOutcome) {
        state.withLock { $0.webhookDeliveries[id, default: [:]][outcome, default: 0] += 1 }
    }

    /// Records the latency of every commit `store` makes from now on.
    public func recordCommits(of store: any ChangeLog) {
        store.observeCommits { [self] seconds in commitFinished(seconds: seconds) }
    }

    /// Records how long one durable commit took.
    public func commitFinished(seconds: Double) {
        state.withLock { $0.commitLatency.record(seconds: seconds) }
    }

    /// The current values in the Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for (suffix, value) in samples { lines.append("\(name)\(suffix) \(value)") }
        }
        metric("rollboard_connections", "gauge", "Open client connections (HTTP and WebSocket).",
               [("", "\(snapshot.connectionCounter?() ?? 0)")])
        metric("rollboard_websocket_sessions", "gauge", "Dashboard screens connected over WebSocket.",
               [("", "\(snapshot.webSocketSessions)")])
        metric("rollboard_frames_sent_total", "counter", "Frames handed to client connections.",
               [("", "\(snapshot.framesSent)")])
        metric("rollboard_frame_bytes_sent_total", "counter", "Bytes of frame messages sent, before compression.",
               [("", "\(snapshot.bytesSent)")])
        metric("rollboard_frames_skipped_total", "counter", "Frames skipped because a client was over its watermark.",
               [("", "\(snapshot.framesSkipped)")])
        metric("rollboard_slow_clients_closed_total", "counter", "Clients closed for staying over their watermark.",
               [("", "\(snapshot.slowClientsClosed)")])
        metric("rollboard_posts_accepted_total", "counter", "Producer writes accepted after a durable commit.",
               [("", "\(snapshot.postsAccepted)")])
        metric("rollboard_posts_refused_total", "counter", "Producer writes refused, by status code.",
               snapshot.postsRefused.sorted { $0.key < $1.key }.map { ("{status=\"\($0.key)\"}", "\($0.value)") })
        metric("rollboard_webhook_deliveries_total", "counter",
               "Webhook deliveries by webhook and outcome (accepted, ignored, refused: signature, invalid, failed).",
               WebhookOutcome.samples(snapshot.webhookDeliveries))
        metric("rollboard_store_commit_seconds", "histogram", "Latency of durable store commits.",
               snapshot.commitLatency.samples)
        metric("rollboard_post_seconds", "histogram",
               "Producer writes, from the request read to its answer handed to the connection (the commit included).",
               snapshot.postLatency.samples)
        metric("rollboard_tile_queue_length", "gauge", "Changes waiting in the tiles' animation queues, per dashboard.",
               snapshot.queueLengths.sorted { $0.key < $1.key }.map {
                   ("{dashboard=\"\($0.key)\"}", "\($0.value)")
               })
        if let redis = snapshot.redisStatistics?() {
            metric("rollboard_redis_up", "gauge", "Whether this node's connections to Redis are up.",
                   [("", redis.isUp ? "1" : "0")])
            metric("rollboard_redis_command_seconds", "histogram",
                   "Latency of Redis commands (appends and pings), as this node measured it.",
                   redis.commandLatency.samples)
            metric("rollboard_stream_lag_seconds", "gauge",
                   "Seconds between the newest change read from the shared stream being committed and this node reading it.",
                   [("", "\(redis.streamLagSeconds)")])
            metric("rollboard_stream_changes_read_total", "counter", "Changes this node read from the shared stream.",
                   [("", "\(redis.changesRead)")])
            metric("rollboard_redis_disconnections_total", "counter", "Times this node lost its connection to Redis.",
                   [("", "\(redis.disconnections)")])
            metric("rollboard_redis_unknown_changes_total", "counter",
                   "Changes read from the shared stream of a kind this node does not know (a newer node's), skipped.",
                   redis.unknownChanges.sorted { $0.key < $1.key }.map { ("{kind=\"\($0.key)\"}", "\($0.value)") })
            let recovery = [
                ("recoveries", "Times Redis lost the cluster's data and this node recovered (seeded or adopted).",
                 redis.recoveries),
                ("recovery_seeds", "Times this node seeded Redis from what it held.", redis.recoverySeeds),
                ("recovery_lost_changes", "Changes this node had applied that the seeded state lacked.",
                 redis.recoveryLostChanges),
            ]
            for (name, help, count) in recovery {
                metric("rollboard_redis_\(name)_total", "counter", help, [("", "\(count)")])
            }
        }
        lines += SourceStatistics.prometheusLines(snapshot.sourceStatuses?() ?? [])
        return lines.joined(separator: "\n") + "\n"
    }
}
