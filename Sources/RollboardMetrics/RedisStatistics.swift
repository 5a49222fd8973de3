package import RollboardConfig

/// What a Redis change log measured since it opened, for `/metrics`.
public struct RedisStatistics: Sendable, Equatable {
    /// Whether both connections to Redis are up.
    public var isUp = true
    /// Upper bounds, in seconds, of the command latency histogram's buckets.
    public static let latencyBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
    /// How long commands (appends and pings) took to be answered.
    public var commandLatency = LatencyHistogram(bounds: RedisStatistics.latencyBuckets)
    /// Seconds between the newest change read from the stream being committed and this node reading it.
    public var streamLagSeconds = 0.0
    /// Changes read from the stream.
    public var changesRead = 0
    /// Times the connection to Redis was lost.
    public var disconnections = 0
    /// Changes read from the stream whose kind this node does not know (a newer node wrote them), skipped, by kind byte.
    public var unknownChanges: [UInt8: Int] = [:]
    /// Times this node recovered from a Redis that lost the cluster's data (seeding it or adopting the new epoch);
    /// of those, the times it seeded Redis; and the sequence numbers it had applied beyond the state it adopted
    /// (changes it had seen that the seeding node had not, lost from the cluster; 0 on the seeding node).
    public var recoveries = 0, recoverySeeds = 0, recoveryLostChanges = 0

    public init() {}

    package mutating func recordCommand(seconds: Double) {
        commandLatency.record(seconds: seconds)
    }
}
