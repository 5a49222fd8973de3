import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// A change a producer makes to a tile.
enum TileChange: Sendable, Equatable {
    /// A new metric value; `interval` overrides the animation's duration; `animated: false` jumps at once; `policy`
    /// overrides the tile's queue policy; `stored` is the committed change as the metric's series keeps it (its seq,
    /// commit time and increment), which a tile with a `window` adds up (absent for changes that are not stored).
    case value(Double, interval: Double?, animated: Bool, policy: QueuePolicy? = nil, stored: MetricSeries.Point? = nil)
    /// A wheel target as a progress in [0, 1].
    case wheelProgress(Double)
    /// A wheel target as an index into the wheel's contents.
    case wheelIndex(Int)
    /// A carousel command from a producer, applied to every screen.
    case carousel(CarouselViewerAction, page: Int?)
    /// A text tile's new message (empty clears it) and colour.
    case text(String, color: String?)
    /// A carousel's new slides, replacing the ones it shows.
    case slides([ProducerSlide])
    /// A leaderboard's new whole board.
    case leaderboard([LeaderboardEntry])
}
