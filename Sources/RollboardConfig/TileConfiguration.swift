public import RollboardAnimation

/// One tile of a dashboard: what it shows, where, and how it animates.
public struct TileConfiguration: Sendable, Equatable {
    /// Unique within its dashboard.
    public var id: String
    /// The caption shown above the tile; `nil` shows none.
    public var title: String?
    /// The id producers post to (a metric, a wheel, a carousel or a text); defaults to the tile id.
    public var metric: String
    /// The tile's cells; `nil` lets the page place it in the next free cell.
    public var position: TilePosition?
    /// Seconds without a new value after which the tile shows as stale; `nil` uses the server's `staleAfter`.
    public var staleAfter: Double?
    /// Changes this tile's animation queue holds; `nil` uses the server's `limits.backlog`.
    public var backlog: Int?
    /// What the tile does with a change that arrives while it animates; `nil` is `fifo`. Carousels have no queue.
    public var queue: QueuePolicy?
    /// How far, in seconds, a screen may fall behind the newest value; `nil` uses the type's default (see
    /// ``RollboardConfiguration/maxLag(_:)``).
    public var maxLag: Double?
    /// Goal, thresholds and change arrow (odometers and counters).
    public var kpi: KPIOptions
    /// The type and its options.
    public var options: TileOptions
    /// What stretch of its metric the tile shows, and how reduced (odometers, counters and gauges); `nil` shows the
    /// latest value.
    public var window: WindowOptions?

    public init(
        id: String,
        title: String? = nil,
        metric: String? = nil,
        position: TilePosition? = nil,
        staleAfter: Double? = nil,
        backlog: Int? = nil,
        queue: QueuePolicy? = nil,
        maxLag: Double? = nil,
        kpi: KPIOptions = KPIOptions(),
        options: TileOptions,
        window: WindowOptions? = nil
    ) {
        self.id = id
        self.title = title
        self.metric = metric ?? id
        self.position = position
        self.staleAfter = staleAfter
        self.backlog = backlog
        self.queue = queue
        self.maxLag = maxLag
        self.kpi = kpi
        self.options = options
        self.window = window
    }

    public var type: TileType { options.type }
}
