import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Server metrics")
struct ServerMetricsTests {
    @Test("counters appear in the Prometheus text with their totals")
    func countersAppearWithTotals() {
        let metrics = ServerMetrics()
        metrics.frameSent(bytes: 120)
        metrics.frameSent(bytes: 80)
        metrics.framesSkipped(1)
        metrics.framesSent(0, bytes: 0)
        metrics.postFinished(status: 202, seconds: 0.001)
        metrics.postFinished(status: 422, seconds: 0.001)
        metrics.postFinished(status: 422, seconds: 0.001)
        metrics.webSocketSessionsChanged(by: 1)
        metrics.countConnections { 7 }
        let text = metrics.prometheusText()
        #expect(text.contains("\nrollboard_frames_sent_total 2\n"))
        #expect(text.contains("\nrollboard_frame_bytes_sent_total 200\n"))
        #expect(text.contains("\nrollboard_frames_skipped_total 1\n"))
        #expect(text.contains("\nrollboard_posts_accepted_total 1\n"))
        #expect(text.contains("\nrollboard_posts_refused_total{status=\"422\"} 2\n"))
        #expect(text.contains("\nrollboard_websocket_sessions 1\n"))
        #expect(text.hasPrefix("# HELP rollboard_connections") && text.contains("\nrollboard_connections 7\n"))
    }

    @Test("commit latency lands in every bucket at or above it, cumulatively")
    func commitLatencyBucketsAreCumulative() {
        let metrics = ServerMetrics()
        metrics.commitFinished(seconds: 0.003)
        metrics.commitFinished(seconds: 0.0004)
        let text = metrics.prometheusText()
        #expect(text.contains("rollboard_store_commit_seconds_bucket{le=\"0.0005\"} 1\n"))
        #expect(text.contains("rollboard_store_commit_seconds_bucket{le=\"0.002\"} 1\n"))
        #expect(text.contains("rollboard_store_commit_seconds_bucket{le=\"0.005\"} 2\n"))
        #expect(text.contains("rollboard_store_commit_seconds_bucket{le=\"+Inf\"} 2\n"))
        #expect(text.contains("rollboard_store_commit_seconds_count 2\n"))
    }

    @Test("a producer write's answer time lands in the post latency histogram, refused or not")
    func postLatency() {
        let metrics = ServerMetrics()
        metrics.postFinished(status: 202, seconds: 0.0015)
        metrics.postFinished(status: 503, seconds: 0.3)
        let text = metrics.prometheusText()
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"0.001\"} 0\n"))
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"0.002\"} 1\n"))
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"1.0\"} 2\n"))
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"+Inf\"} 2\n"))
        #expect(text.contains("rollboard_post_seconds_count 2\n"))
    }

    @Test("every metric family has HELP and TYPE lines")
    func everyFamilyIsDescribed() {
        let text = ServerMetrics().prometheusText()
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
        let helps = text.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }
        #expect(types.count == 12)
        #expect(helps.count == types.count)
    }

    @Test("webhook deliveries are counted per webhook and outcome, in order")
    func webhookDeliveries() {
        let metrics = ServerMetrics()
        metrics.webhookDelivered("stripe", outcome: .refused)
        metrics.webhookDelivered("github", outcome: .accepted)
        metrics.webhookDelivered("stripe", outcome: .refused)
        metrics.webhookDelivered("stripe", outcome: .accepted)
        let lines = metrics.prometheusText().split(separator: "\n").filter {
            $0.hasPrefix("rollboard_webhook_deliveries_total{")
        }
        #expect(
            lines == [
                #"rollboard_webhook_deliveries_total{webhook="github",outcome="accepted"} 1"#,
                #"rollboard_webhook_deliveries_total{webhook="stripe",outcome="accepted"} 1"#,
                #"rollboard_webhook_deliveries_total{webhook="stripe",outcome="refused"} 2"#,
            ])
    }

    @Test("a node on Redis adds whether Redis is up, its command latency, the stream lag, the changes of kinds it does not know and the queue lengths")
    func redisFamilies() {
        let metrics = ServerMetrics()
        var statistics = RedisStatistics()
        statistics.isUp = false
        statistics.recordCommand(seconds: 0.0007)
        statistics.recordCommand(seconds: 0.02)
        statistics.streamLagSeconds = 0.004
        statistics.disconnections = 2
        statistics.unknownChanges = [238: 3, 7: 1]
        let reading = statistics
        metrics.readRedis { reading }
        metrics.queueLength(3, dashboard: "demo")
        let text = metrics.prometheusText()
        #expect(text.contains("rollboard_redis_up 0\n"))
        #expect(text.contains("rollboard_redis_command_seconds_bucket{le=\"0.0005\"} 0\n"))
        #expect(text.contains("rollboard_redis_command_seconds_bucket{le=\"0.001\"} 1\n"))
        #expect(text.contains("rollboard_redis_command_seconds_bucket{le=\"0.025\"} 2\n"))
        #expect(text.contains("rollboard_redis_command_seconds_count 2\n"))
        #expect(text.contains("rollboard_stream_lag_seconds 0.004\n"))
        #expect(text.contains("rollboard_redis_disconnections_total 2\n"))
        #expect(text.contains("rollboard_redis_unknown_changes_total{kind=\"7\"} 1\nrollboard_redis_unknown_changes_total{kind=\"238\"} 3\n"))
        #expect(text.contains("rollboard_tile_queue_length{dashboard=\"demo\"} 3\n"))
        #expect(!ServerMetrics().prometheusText().contains("rollboard_redis_up"), "a node on its journal has none")
    }
}
