public import RollboardConfig
public import RollboardStore

/// What the admin API and `/metrics` say about one source (never its URL's credentials, headers or answers).
public struct SourceStatus: Sendable, Equatable {
    public var id: String
    public var kind: SourceConfiguration.Kind
    public var every: Double
    public var health: SourceHealth
    /// Wall-clock seconds since 1970 of the last fetch that gave values; `nil` before the first.
    public var lastSuccess: Double?
    /// The last failure's reason and wall-clock time.
    public var lastError: (reason: String, at: Double)?
    /// Wall-clock seconds of the next fetch; `nil` while one is under way or the source is not polled here.
    public var nextFetch: Double?
    /// Whether this node polls it (with Redis, one node of the cluster does).
    public var polledHere: Bool
    /// Fetches done, and how many took at most each of ``SourceStatistics/durationBuckets`` seconds.
    public var fetches: Int
    public var durationCounts: [Int]
    public var durationSum: Double

    public static func == (left: SourceStatus, right: SourceStatus) -> Bool {
        left.id == right.id && left.kind == right.kind && left.every == right.every && left.health == right.health
            && left.lastSuccess == right.lastSuccess && left.lastError?.reason == right.lastError?.reason
            && left.lastError?.at == right.lastError?.at && left.nextFetch == right.nextFetch
            && left.polledHere == right.polledHere && left.fetches == right.fetches
            && left.durationCounts == right.durationCounts && left.durationSum == right.durationSum
    }

    package init(id: String, kind: SourceConfiguration.Kind, every: Double, health: SourceHealth, lastSuccess: Double?, lastError: (reason: String, at: Double)?, nextFetch: Double?, polledHere: Bool, fetches: Int, durationCounts: [Int], durationSum: Double) {
        self.id = id
        self.kind = kind
        self.every = every
        self.health = health
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.nextFetch = nextFetch
        self.polledHere = polledHere
        self.fetches = fetches
        self.durationCounts = durationCounts
        self.durationSum = durationSum
    }
}
