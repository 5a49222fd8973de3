package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// An odometer, counter or gauge that shows a window of its metric (``WindowedValue``) instead of its latest value:
/// every committed change updates the window's number, which the tile moves to like to a posted value; when the
/// window resets or a change ages out, it moves (or, calm, jumps) to the new number, and a window without a change
/// shows `null` ("—"). Its change arrow compares with the window's previous number (`delta: previous`), a baseline,
/// or with `compare` the same moment of an earlier period.
struct WindowedTile<Animator: NumberTileAnimator>: WindowedLiveTile, WallClockTile {
    var tileID: String { inner.tileID }
    /// The number tile showing the window's number, without an indicator of its own.
    private(set) var inner: NumberTile<Animator>
    private(set) var windowed: WindowedValue
    let indicator: KPIIndicator?
    /// Wall-clock seconds since 1970 at hub time 0 (the window's times are wall-clock times).
    var wallOffset: Double
    private var indicatorMembers: [TileState.Member] = []
    /// When the window's number or the arrow last changed other than by a queued move (on the hub's clock).
    private var changedAt = -Double.infinity
    /// Whether the window's number is one the tile cannot show (it shows "—" meanwhile).
    private var unshowable = false

    /// - Parameter inner: the number tile at rest on the window's number at `time` (or without a value).
    init(inner: NumberTile<Animator>, windowed: WindowedValue, indicator: KPIIndicator?, wallOffset: Double, at time: Double) {
        self.inner = inner
        self.windowed = windowed
        self.indicator = indicator
        self.wallOffset = wallOffset
        unshowable = windowed.value != nil && !inner.hasValue  // the factory logged it
        updateIndicator(previous: nil)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(_, let interval, let animated, let policy, let stored?) = change else { return }
        // The sparkline follows the metric's committed values, once each, never the window's number.
        if windowed.lastSeq.map({ stored.seq > $0 }) ?? true { inner.addToTrend(stored, at: time) }
        let before = windowed.value
        let comparedBefore = windowed.compared
        guard windowed.add(stored, at: time + wallOffset) else { return }
        try show(
            before: before, comparedBefore: comparedBefore, at: time, interval: interval, animated: animated,
            policy: policy)
    }

    var windowDue: Double? { windowed.due.map { $0 - wallOffset } }

    /// Takes a stepped wall clock, forward or back: the window is read again at the wall-clock time it now reads, so it
    /// shows that day's (or stretch's) changes and resets at its real end.
    mutating func take(wallOffset: Double, at time: Double) throws {
        self.wallOffset = wallOffset
        let before = windowed.value
        let comparedBefore = windowed.compared
        windowed.read(at: time + wallOffset)
        try show(before: before, comparedBefore: comparedBefore, at: time, interval: nil, animated: true, policy: nil)
    }

    mutating func advanceWindow(at time: Double) throws {
        let before = windowed.value
        let comparedBefore = windowed.compared
        windowed.advance(to: time + wallOffset)
        try show(before: before, comparedBefore: comparedBefore, at: time, interval: nil, animated: true, policy: nil)
    }

    /// Moves the number tile to the window's number (or to no value) and writes the arrow again.
    private mutating func show(
        before: Double?, comparedBefore: Double?, at time: Double, interval: Double?, animated: Bool,
        policy: QueuePolicy?
    ) throws {
        let value = windowed.value
        if value != before || windowed.compared != comparedBefore { changedAt = time }
        if let value {
            if value != before || before == nil {
                do {
                    try inner.show(value, interval: interval, animated: animated, policy: policy, at: time)
                    unshowable = false
                } catch {
                    // Never a stale number: "—" until a number the tile can show, the problem logged (by the hub)
                    // once, not for every change while it lasts.
                    try inner.clear(at: time)
                    indicatorMembers = []
                    if unshowable { return }
                    unshowable = true
                    throw error
                }
            }
        } else if before != nil {
            try inner.clear(at: time)
        }
        if unshowable, value != nil { return }
        updateIndicator(previous: before)
    }

    private mutating func updateIndicator(previous: Double?) {
        guard let indicator, let value = windowed.value else {
            indicatorMembers = []
            return
        }
        if let compare = windowed.compare {
            indicatorMembers = indicator.members(target: value, compared: windowed.compared, versus: compare)
        } else {
            indicatorMembers = indicator.members(target: value, previous: previous)
        }
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    func state(at time: Double) -> TileState? {
        withIndicator(inner.state(at: time))
    }

    func calmState(at time: Double) -> TileState? {
        withIndicator(inner.calmState(at: time))
    }

    private func withIndicator(_ state: TileState?) -> TileState? {
        guard var state, windowed.value != nil else { return nil }
        state.members += indicatorMembers
        return state
    }

    /// Moving while the number tile moves, and within ``ChangeWindow`` of a reset or a new arrow.
    func nextMotion(after time: Double) -> Double? {
        [inner.nextMotion(after: time), ChangeWindow.nextMotion(after: time, changedAt: changedAt)].compactMap { $0 }.min()
    }

    func nextCalmMotion(after time: Double) -> Double? {
        ChangeWindow.nextMotion(after: time, changedAt: changedAt)
    }

    func pendingChanges(at time: Double) -> Int {
        inner.pendingChanges(at: time)
    }
}
