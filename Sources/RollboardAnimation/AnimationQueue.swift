/// The changes of one tile on one screen, evaluated at any time; by default played one after another
/// (DPScrollNumberLabel's task array).
///
/// What happens to a change that arrives while an animation runs is the ``QueuePolicy``: under `fifo` it waits its
/// turn and starts, from the value queued before it, when every part of the running animation has finished; under
/// `latest` it replaces whatever waits; under `retarget` the running animation bends towards it at once. A change to
/// the value already queued last is a no-op. When more than `backlog` changes would wait, all waiting changes collapse
/// into one move to the newest value, so a screen that fell behind never replays a long history. With a `maxLag`,
/// the queue is also never further behind than that under any policy: when the queued work would end more than
/// `maxLag` after the newest change arrived, the waiting changes collapse into one move to the newest value, played
/// faster if needed to end within it.
///
/// Times are seconds on any clock the caller chooses, and must not go backwards between calls to
/// ``enqueue(_:at:interval:animated:policy:)`` (an earlier time is treated as the latest time seen).
/// ``state(at:)`` is a cheap, non-mutating query meant to be called every frame.
public struct AnimationQueue<Animator: TileAnimator>: Sendable {
    /// Plans the animations of this tile.
    public let animator: Animator
    /// The most changes that may wait behind the running one.
    public let backlog: Int
    /// The longest the queued work may run past the arrival of the newest change, in seconds; `nil` leaves only
    /// the backlog to bound it.
    public let maxLag: Double?
    /// The policy of a change that names none.
    public let policy: QueuePolicy

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var animation: Animator.Animation
        @usableFromInline var start: Double
        @usableFromInline var end: Double
        @usableFromInline var rest: Animator.State
    }

    /// The resting state before the first entry.
    @usableFromInline private(set) var base: Animator.State
    /// Running and waiting animations, in order; each starts when the previous one ends.
    @usableFromInline private(set) var entries: [Entry] = []
    private var latestTime: Double

    /// The time at which the last queued animation ends (or the last change was applied), after which
    /// the tile rests on ``target`` until the next change.
    public private(set) var restTime: Double

    /// Creates a queue resting on `value` at `time`; `backlog` must be at least 1, `maxLag` above 0.
    public init(
        _ animator: Animator, value: Animator.Value, at time: Double = 0, backlog: Int = 8, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo
    ) throws(AnimationError) {
        guard time.isFinite else { throw AnimationError.invalidTime }
        guard backlog >= 1 else {
            throw AnimationError(.invalidConfiguration, "backlog must be at least 1, not \(backlog)")
        }
        if let maxLag, !(maxLag.isFinite && maxLag > 0) {
            throw AnimationError(.invalidConfiguration, "maxLag must be above 0 seconds, not \(maxLag)")
        }
        self.animator = animator
        self.backlog = backlog
        self.maxLag = maxLag
        self.policy = policy
        base = try animator.settle(value, after: nil)
        latestTime = time
        restTime = time
    }

    /// Drops every queued change and rests on `value` from `time`, keeping the animator, backlog, `maxLag` and policy:
    /// a tile's first value appears at once, settled as a new queue would settle it (after no earlier state).
    public mutating func restart(on value: Animator.Value, at time: Double) throws(AnimationError) {
        self = try AnimationQueue(animator, value: value, at: time, backlog: backlog, maxLag: maxLag, policy: policy)
    }

    /// The resting state of the last queued value: what the tile shows once every queued change has played.
    public var target: Animator.State { entries.last?.rest ?? base }

    /// Queues a change to `value` posted at `time`.
    ///
    /// - Parameters:
    ///   - interval: the length of this change in seconds; nil or 0 for the tile's own timing.
    ///   - animated: false shows `value` at once, dropping the running and waiting changes.
    ///   - policy: what to do with running and waiting changes; nil for the queue's own ``policy``.
    /// - Throws: ``AnimationError`` when the tile cannot show `value`, or for a negative or
    ///   non-finite interval or time; the queue is then unchanged.
    public mutating func enqueue(
        _ value: Animator.Value, at time: Double, interval: Double? = nil, animated: Bool = true,
        policy: QueuePolicy? = nil
    ) throws(AnimationError) {
        guard time.isFinite else { throw AnimationError.invalidTime }
        if let interval, !(interval.isFinite && interval >= 0) {
            throw AnimationError(.invalidInterval, "interval \(interval) must be a finite number of seconds, zero or more")
        }
        let interval = interval == 0 ? nil : interval
        let now = max(time, latestTime)
        let settled = try animator.settle(value, after: target)
        latestTime = now
        while let first = entries.first, first.end <= now {
            base = first.rest
            entries.removeFirst()
        }
        if !animated {
            entries.removeAll(keepingCapacity: true)
            base = settled
            restTime = now
            return
        }
        if settled == target { return }
        let running = entries.first.map { $0.start <= now } ?? false
        let waiting = entries.count - (running ? 1 : 0)
        switch policy ?? self.policy {
        case .fifo:
            if waiting + 1 > backlog {
                try collapse(waiting, to: value, at: now, interval: interval)
            } else {
                append(from: target, to: settled, at: now, interval: interval)
                if let maxLag, let last = entries.last, last.end - now > maxLag {
                    try collapse(waiting + 1, to: value, at: now, interval: interval)
                }
            }
        case .latest:
            try collapse(waiting, to: value, at: now, interval: interval)
        case .retarget:
            retarget(to: settled, at: now, interval: interval)
        }
        restTime = entries.last?.end ?? now
    }

    /// Replaces every queued change by one glide from what the running change shows at `now` (or from rest) to `end`,
    /// ending within `maxLag` when there is one.
    private mutating func retarget(to end: Animator.State, at now: Double, interval: Double?) {
        let running = entries.first.flatMap { entry in entry.start <= now ? (entry.animation, now - entry.start) : nil }
        if let first = entries.first, running != nil { base = first.rest }
        entries.removeAll(keepingCapacity: true)
        var animation = animator.retarget(from: base, running: running, to: end, interval: interval)
        if let maxLag, animation.duration > maxLag {
            animation = animator.retarget(from: base, running: running, to: end, interval: maxLag)
        }
        entries.append(Entry(animation: animation, start: now, end: now + animation.duration, rest: end))
    }

    /// Drops the last `count` (waiting) entries and queues one move from the remaining target to `value`, timed to end
    /// within `maxLag` of `now` when there is one.
    private mutating func collapse(
        _ count: Int, to value: Animator.Value, at now: Double, interval: Double?
    ) throws(AnimationError) {
        entries.removeLast(count)
        let from = target
        let collapsed = try animator.settle(value, after: from)
        guard collapsed != from else { return }
        var interval = interval
        if let maxLag {
            let begin = entries.last?.end ?? now
            let budget = now + maxLag - begin
            let natural = animator.animation(from: from, to: collapsed, interval: interval).duration
            if natural > budget { interval = max(budget, Self.shortestCatchUp) }
        }
        append(from: from, to: collapsed, at: now, interval: interval)
    }

    /// The shortest move a catch-up plays, so the digits still visibly roll.
    static var shortestCatchUp: Double { 0.1 }

    private mutating func append(from start: Animator.State, to end: Animator.State, at now: Double, interval: Double?) {
        let animation = animator.animation(from: start, to: end, interval: interval)
        let begin = max(now, entries.last?.end ?? now)
        entries.append(Entry(animation: animation, start: begin, end: begin + animation.duration, rest: end))
    }

    /// What the tile shows at `time`.
    @inlinable
    public func state(at time: Double) -> Animator.State {
        for index in entries.indices {
            let entry = entries[index]
            if time < entry.start { return index == 0 ? base : entries[index - 1].rest }
            if time < entry.end { return entry.animation.state(at: time - entry.start) }
        }
        return entries.last?.rest ?? base
    }

    /// Whether nothing moves at `time` or later unless another change is queued: `time` ≥ ``restTime``.
    public func isAtRest(at time: Double) -> Bool { time >= restTime }

    /// The number of changes queued and not yet finished at `time`, the running one included.
    public func pendingCount(at time: Double) -> Int {
        entries.reduce(0) { $0 + ($1.end > time ? 1 : 0) }
    }
}
