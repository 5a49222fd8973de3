package import RollboardCore
package import RollboardConfig

/// A consistent view of a change log's state at one moment: every value, target, text and slide set as of
/// `lastSeq`. Cheap to take (the collections are shared until one side changes).
public struct StoreSnapshot: Sendable {
    let model: StoreModel

    package init(model: StoreModel) {
        self.model = model
    }

    /// The highest sequence number applied (0 for an empty log).
    public var lastSeq: UInt64 { model.lastSeq }

    /// The latest value of metric `id`.
    public func current(_ id: String) -> StoredMetric? { model.metrics[id]?.current }

    /// The latest value of every metric, sorted by id.
    public func all() -> [StoredMetric] { model.metrics.values.map(\.current).sorted { $0.id < $1.id } }

    /// Past values of metric `id`, oldest first, the current one last.
    public func history(_ id: String) -> [MetricHistoryEntry] { model.metrics[id]?.history ?? [] }

    /// The series of metric `id` (raw changes and rollups), empty before its first value.
    package func series(_ id: String) -> MetricSeries { model.series[id] ?? MetricSeries() }

    /// How much of each series the log keeps.
    package var seriesLimits: SeriesLimits { model.seriesLimits }

    /// When the value a tile of `id` shows was last committed, in seconds since 1970: its number, wheel target or
    /// board; `nil` before the first. What a hub greets its screens with and what the admin API judges staleness by.
    public func valueUpdatedAt(_ id: String) -> Double? {
        current(id)?.updatedAt ?? wheel(id)?.updatedAt ?? leaderboard(id)?.updatedAt
    }

    /// The latest target of wheel `id`.
    public func wheel(_ id: String) -> StoredWheel? { model.wheels[id] }

    /// The latest target of every wheel, sorted by id.
    public func allWheels() -> [StoredWheel] { model.wheels.values.sorted { $0.id < $1.id } }

    /// The latest message of text tile `id`.
    public func text(_ id: String) -> StoredText? { model.texts[id] }

    /// The latest slides of carousel `id`, if a producer set any.
    public func slides(_ id: String) -> StoredSlides? { model.slides[id] }

    /// The latest board of leaderboard `id`, if a producer set one.
    public func leaderboard(_ id: String) -> StoredLeaderboard? { model.leaderboards[id] }

    /// The viewer keys in force (created and not revoked), oldest first.
    public func viewerKeys() -> [ViewerKey] {
        model.viewerKeys.values.compactMap(\.key).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The latest change of every viewer key, revocations included, in sequence order.
    package func viewerKeyChanges() -> [StoredViewerKey] { model.viewerKeys.values.sorted { $0.seq < $1.seq } }

    /// The operator's commands playlist `id`'s state follows from, oldest first; applied in order as of their commit
    /// times, they bring a starting node's playlist in step (held, or showing the entry an operator chose).
    public func playlistCommands(_ id: String) -> [StoredPlaylistCommand] { model.playlists[id] ?? [] }
}
