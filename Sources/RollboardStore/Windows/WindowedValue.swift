package import RollboardConfig

/// The number one tile's window shows, kept up to date in wall-clock seconds since 1970: each committed change is
/// added in constant time (``WindowTally``), and the window is read again from its metric's series (the change log's,
/// through `series`, under the log's own lock) only when it must be: when it resets (``MetricWindow/nextReset(after:)``),
/// when a change of a sliding `last …` window ages out (at most once a second), and for `compare`, the compared
/// period's number at most once a second on changes and once a minute otherwise. A change already in the series read
/// (its seq at most ``lastSeq``) is not added again.
package struct WindowedValue: Sendable {
    let window: MetricWindow
    package let compare: MetricWindow.Comparison?
    let limits: SeriesLimits
    /// The metric's series as the change log holds it now.
    let series: @Sendable () -> MetricSeries
    private(set) var tally: WindowTally
    /// The newest change the tally holds.
    package private(set) var lastSeq: UInt64?
    /// Where the window began when last read, and when it next resets (`nil` for sliding windows).
    private var start: Double
    private var reset: Double?
    /// When the oldest change of a sliding window leaves it.
    private var ageOut: Double?
    /// The compared period's number at the same moment, as of `comparedAt`.
    package private(set) var compared: Double?
    private var comparedAt = -Double.infinity
    private var readAt = -Double.infinity

    /// Sliding windows are read again at most this often (seconds); so is the compared number on changes.
    static let minimumInterval = 1.0
    /// A change committed at t is in a `last D` window up to t + D inclusive: it is read again this much later.
    static let ageOutMargin = 0.001
    /// How long the compared number may stand without a change (seconds).
    static let compareRefresh = 60.0

    package init(
        window: MetricWindow, compare: MetricWindow.Comparison?, limits: SeriesLimits,
        series: @escaping @Sendable () -> MetricSeries, at now: Double
    ) {
        self.window = window
        self.compare = compare
        self.limits = limits
        self.series = series
        tally = WindowTally()
        start = now
        read(at: now)
    }

    /// The window's number, `nil` while it holds no change.
    package var value: Double? { tally.value(window.aggregate) }

    /// When the window must be read again (wall-clock seconds), or `nil` when only a change can change it.
    package var due: Double? {
        var times = [reset, ageOut.map { Swift.max($0, readAt + Self.minimumInterval) }]
        if compare != nil { times.append(comparedAt + Self.compareRefresh) }
        return times.compactMap { $0 }.min()
    }

    /// Adds a committed change, seen at `now`; returns whether what the tile shows may have changed.
    package mutating func add(_ point: MetricSeries.Point, at now: Double) -> Bool {
        if let lastSeq, point.seq <= lastSeq { return false }
        if let reset, point.time >= reset {
            read(at: Swift.max(now, point.time))  // the change belongs to the next period: it has begun
            return true
        }
        lastSeq = point.seq
        var changed = false
        if window.span != .yesterday, point.time >= start {
            tally.add(point)
            if case .last(let seconds) = window.span, ageOut == nil { ageOut = point.time + seconds + Self.ageOutMargin }
            changed = true
        }
        if compare != nil, now - comparedAt >= Self.minimumInterval {
            readCompared(of: series(), at: now)
            changed = true
        }
        return changed
    }

    /// Reads the window again if it is due at `now` (it reset, a change aged out, the compared number is old).
    package mutating func advance(to now: Double) {
        guard let due, due <= now else { return }
        if reset.map({ now >= $0 }) == true || ageOut.map({ now >= $0 }) == true {
            read(at: now)
        } else {
            readCompared(of: series(), at: now)
        }
    }

    /// Reads the window at `now` from the metric's series (also when the wall clock was stepped, either way).
    package mutating func read(at now: Double) {
        let series = series()
        tally = WindowTally(window, of: series, at: now, limits: limits)
        lastSeq = series.raw.last?.seq ?? lastSeq
        start = window.interval(at: now).start
        reset = window.nextReset(after: now)
        readAt = now
        if case .last(let seconds) = window.span {
            // The oldest raw change in the window leaves it `seconds` after it was committed; a window longer than
            // the raw changes are kept counts in per-minute rollups, read again every minute.
            let oldest = series.raw.partitioningIndex { $0.time >= now - seconds }
            ageOut = oldest < series.raw.count ? series.raw[oldest].time + seconds + Self.ageOutMargin : nil
            if seconds > limits.retention { ageOut = Swift.min(ageOut ?? .infinity, now + 60) }
        }
        if compare != nil { readCompared(of: series, at: now) }
    }

    private mutating func readCompared(of series: MetricSeries, at now: Double) {
        guard let compare else { return }
        compared = window.value(of: series, at: window.comparedMoment(compare, of: now), limits: limits)
        comparedAt = now
    }
}
