package import RollboardConfig
package import RollboardMetrics
import RollboardNet
package import RollboardStore

extension HubStateMachine {
    /// The source of `metrics` failed for `reason`, or (`nil`) gave values again: when that changes what this
    /// dashboard's tiles show, every screen gets the new `sources` message (docs/protocol.md).
    mutating func setSourceProblem(metrics: [String], reason: String?) -> [HubAction] {
        var changed = false
        for metric in metrics where tilesByMetric[metric] != nil && sourceProblems[metric] != reason {
            sourceProblems[metric] = reason
            changed = true
        }
        guard changed, let text = sourcesText(onlyIfStale: false) else { return [] }
        return sendToEveryScreen(text)
    }

    /// `{"type":"sources","stale":{TILE:REASON,…}}`: every tile whose source fails, with why (an empty object when
    /// none does); `nil` when `onlyIfStale` and none does.
    func sourcesText(onlyIfStale: Bool) -> String? {
        var stale: [String: String] = [:]
        for (metric, reason) in sourceProblems {
            for index in tilesByMetric[metric] ?? [] { stale[tileIDs[index]] = reason }
        }
        if stale.isEmpty && onlyIfStale { return nil }
        return ScreenMessageEncoder.sources(stale: stale)
    }
}
