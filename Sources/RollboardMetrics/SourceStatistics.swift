package import RollboardCore
package import RollboardConfig
package import RollboardStore

/// How `/metrics` shows the sources: `rollboard_source_up{source}`, the last success's time and a histogram of fetch
/// durations, from the statuses of the sources this node knows.
package enum SourceStatistics {
    /// Upper bounds, in seconds, of the fetch-duration histogram's buckets.
    package static let durationBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// The sources' samples in the Prometheus text format (each metric's HELP and TYPE once, then one sample per
    /// source); empty without sources.
    static func prometheusLines(_ statuses: [SourceStatus]) -> [String] {
        guard !statuses.isEmpty else { return [] }
        var lines = [
            "# HELP rollboard_source_up Whether the source's last fetch gave its values (1), or failed (0); absent before the first.",
            "# TYPE rollboard_source_up gauge",
        ]
        for status in statuses where status.health != .unknown {
            lines.append("rollboard_source_up{source=\"\(status.id)\"} \(status.health == .up ? 1 : 0)")
        }
        lines += [
            "# HELP rollboard_source_last_success_seconds When the source last gave its values, in seconds since 1970.",
            "# TYPE rollboard_source_last_success_seconds gauge",
        ]
        for status in statuses {
            guard let time = status.lastSuccess else { continue }
            lines.append("rollboard_source_last_success_seconds{source=\"\(status.id)\"} \(time)")
        }
        lines += [
            "# HELP rollboard_source_fetch_seconds How long the fetches of the sources this node polls took.",
            "# TYPE rollboard_source_fetch_seconds histogram",
        ]
        for status in statuses {
            let label = "source=\"\(status.id)\""
            for (index, bound) in durationBuckets.enumerated() {
                lines.append("rollboard_source_fetch_seconds_bucket{\(label),le=\"\(bound)\"} \(status.durationCounts[index])")
            }
            lines.append("rollboard_source_fetch_seconds_bucket{\(label),le=\"+Inf\"} \(status.fetches)")
            lines.append("rollboard_source_fetch_seconds_sum{\(label)} \(status.durationSum)")
            lines.append("rollboard_source_fetch_seconds_count{\(label)} \(status.fetches)")
        }
        return lines
    }
}
