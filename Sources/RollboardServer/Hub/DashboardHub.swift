import Dispatch
import Foundation
import Logging
import Synchronization

/// The live side of one dashboard: every connected screen's session, fed by producer changes and frame clocks.
///
/// Screens are spread over a few shards (one per core by default), each with its own serial queue and frame clock;
/// a change is stamped once with the hub's clock and applied to every shard, so all screens stay in step.
final class DashboardHub: Sendable {
    /// How a hub behaves; the defaults suit a wall of TVs.
    struct Configuration: Sendable {
        var defaultFPS = 30
        /// The highest frame rate a screen gets, whether it asks in the URL or in an `fps` message.
        var maxFPS = 60
        var slowClientTimeout = 10.0
        /// How many shards share the screens.
        var shards = max(1, ProcessInfo.processInfo.activeProcessorCount)

        /// `fps` brought into 1…`maxFPS`.
        func clampedFPS(_ fps: Int) -> Int {
            min(max(fps, 1), max(1, min(maxFPS, 60)))
        }
    }

    let dashboardID: String
    private let shards: [HubShard]
    private let clock: FrameClock
    private let nextSessionID = Atomic<Int>(1)

    /// - Parameters:
    ///   - helloDashboard: the `dashboard` object of the hello message, already encoded.
    ///   - tiles: one live tile per dashboard tile, at rest at the current values, in layout order.
    ///   - tilesByMetric: which tiles show each metric.
    ///   - updatedAt: when each tile's current value was committed, in seconds since 1970.
    init(
        dashboardID: String,
        helloDashboard: String,
        tiles: [any LiveTile],
        tilesByMetric: [String: [String]],
        updatedAt: [String: Double] = [:],
        configuration: Configuration,
        clock: FrameClock,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.dashboardID = dashboardID
        self.clock = clock
        shards = (0..<max(1, configuration.shards)).map { index in
            HubShard(
                helloDashboard: helloDashboard, tiles: tiles, tilesByMetric: tilesByMetric, updatedAt: updatedAt,
                configuration: configuration, clock: clock, metrics: metrics, logger: logger,
                label: "rollboard.hub.\(dashboardID).\(index)")
        }
    }

    /// Adds a screen: it gets the hello with every tile's current state, then frames. Returns its session id.
    func connect(_ sink: any FrameSink, fps: Int?) -> Int {
        let id = nextSessionID.wrappingAdd(1, ordering: .relaxed).oldValue
        shard(for: id).connect(sink, fps: fps, id: id)
        return id
    }

    /// Removes a screen that went away.
    func disconnect(_ sessionID: Int) {
        shard(for: sessionID).disconnect(sessionID)
    }

    /// Applies a producer's change to every tile showing `metricID`, on every screen at once; `committedAt`
    /// (seconds since 1970) is when the change was stored.
    func apply(_ change: TileChange, toMetric metricID: String, committedAt: Double? = nil) {
        let now = clock.now()
        for shard in shards { shard.apply(change, toMetric: metricID, committedAt: committedAt, at: now) }
    }

    /// Handles a text message from one screen; malformed messages close it with 1007. The message is parsed on the
    /// caller's queue; `done` runs once the screen's shard has dealt with it.
    func receive(text: String, from sessionID: Int, done: @escaping @Sendable () -> Void = {}) {
        shard(for: sessionID).receive(ClientMessage.parse(text), from: sessionID, done: done)
    }

    /// Closes every screen with 1001 (server going away); `group` is left once every shard has closed its screens.
    func closeAll(_ group: DispatchGroup) {
        for shard in shards { shard.closeAll(group) }
    }

    /// The number of connected screens.
    var sessionCount: Int {
        shards.reduce(0) { $0 + $1.sessionCount }
    }

    private func shard(for sessionID: Int) -> HubShard {
        shards[sessionID % shards.count]
    }
}
