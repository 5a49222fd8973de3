package import RollboardConfig
package import RollboardStore

/// Which dashboards show each metric, so that a committed change goes only to the hubs of the dashboards whose tiles
/// show its metric: a change that no dashboard shows touches no hub. Built from the configuration, again on every
/// reload.
struct MetricRoutes: Sendable {
    private var dashboardsByMetric: [String: [String]] = [:]

    init(_ dashboards: [DashboardConfiguration]) {
        for dashboard in dashboards {
            var metrics: Set<String> = []
            for tile in dashboard.tiles where metrics.insert(tile.metric).inserted {
                dashboardsByMetric[tile.metric, default: []].append(dashboard.id)
            }
        }
    }

    /// The ids of the dashboards that show `metric`, in configuration order (none: no dashboard does).
    func dashboards(showing metric: String) -> [String] {
        dashboardsByMetric[metric] ?? []
    }

    /// The ids of the dashboards that show any of `metrics`, each once, in the order first found.
    func dashboards(showingAnyOf metrics: [String]) -> [String] {
        var seen: Set<String> = []
        return metrics.flatMap { dashboards(showing: $0) }.filter { seen.insert($0).inserted }
    }
}
