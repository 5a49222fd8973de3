package import RollboardStore

/// A tile that reads the wall clock (a clock's time, a window's midnight, a chart's buckets) as the hub's clock plus
/// `wallOffset`. The hub's clock is monotonic and the wall clock is not: when the system clock is stepped (a VM
/// resumed, an operator or NTP setting it), the hub gives these tiles the new offset (``HubStateMachine/wallClockRead(offset:)``).
protocol WallClockTile: LiveTile {
    /// Wall-clock seconds since 1970 at hub time 0.
    var wallOffset: Double { get set }

    /// Takes a new `wallOffset` at hub time `time` (the system clock was stepped).
    mutating func take(wallOffset: Double, at time: Double) throws
}

extension WallClockTile {
    /// A tile that reads the wall clock only when it draws takes the offset as it is.
    mutating func take(wallOffset: Double, at time: Double) throws {
        self.wallOffset = wallOffset
    }
}
