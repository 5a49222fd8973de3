/// Slides that advance by themselves (CustomBanner): every `interval` seconds the carousel slides
/// to the next slide, wrapping forward from the last to the first. Holding pauses it; after release
/// it waits a full interval before advancing again. Each value is one viewer's carousel; nothing
/// is shared between carousels.
///
/// Times are seconds on any clock; commands must come in time order. ``state(at:)`` is a cheap,
/// non-mutating query.
public struct Carousel: Sendable {
    /// Slides, interval and transition.
    public private(set) var configuration: CarouselConfiguration

    /// The page shown (or slid to) at `origin`.
    private var page: Int
    /// The last manual transition, in unwrapped slide coordinates (`to` ≡ `page` modulo slides).
    private var from: Double
    private var to: Double
    private var transitionStart: Double
    /// Automatic advances happen at origin + k × interval, k ≥ 1, unless held.
    private var origin: Double

    /// Whether a viewer holds the carousel, pausing its automatic advances.
    public private(set) var isHeld = false

    /// Creates a carousel showing slide 0 at `time`; it first advances at `time` + interval.
    public init(configuration: CarouselConfiguration, startingAt time: Double = 0) throws(AnimationError) {
        try configuration.validate()
        guard time.isFinite else { throw AnimationError.invalidTime }
        self.configuration = configuration
        page = 0
        from = 0
        to = 0
        transitionStart = time
        origin = time
    }

    private var slides: Int { configuration.slides }

    /// Automatic advances made from `origin` through `time`.
    private func advances(through time: Double) -> Int {
        guard !isHeld && slides > 1 && time > origin else { return 0 }
        return Int(((time - origin) / configuration.interval).rounded(.down))
    }

    private func progress(since start: Double, at time: Double) -> Double {
        configuration.transition > 0 ? CubicBezier.easeInOut((time - start) / configuration.transition) : (time >= start ? 1 : 0)
    }

    private func wrapped(_ position: Double) -> Double {
        let count = Double(slides)
        var result = position - (position / count).rounded(.down) * count
        if result >= count { result -= count }
        return result < 0 ? 0 : result
    }

    /// The unwrapped position and page at `time`, and when the latest advance happened if any.
    private func unwrapped(at time: Double) -> (position: Double, target: Double, page: Int, advancedAt: Double?) {
        let count = advances(through: time)
        guard count > 0 else {
            let position = from + (to - from) * progress(since: transitionStart, at: time)
            return (position, to, page, nil)
        }
        let advancedAt = origin + Double(count) * configuration.interval
        let target = to + Double(count)
        let position = target - 1 + progress(since: advancedAt, at: time)
        return (position, target, (page + count) % slides, advancedAt)
    }

    /// What the carousel shows at `time`.
    public func state(at time: Double) -> CarouselState {
        let now = unwrapped(at: time)
        return CarouselState(position: wrapped(now.position), page: now.page)
    }

    /// Whether nothing moves at `time` or later until a command: held (or a single slide) with
    /// its transition finished.
    public func isAtRest(at time: Double) -> Bool {
        (isHeld || slides == 1) && time >= transitionStart + configuration.transition
    }

    /// The earliest time at or after `time` when the carousel moves: `time` itself while a transition
    /// runs, else the next automatic advance; nil while it rests (held, or a single slide).
    public func nextMotion(after time: Double) -> Double? {
        let now = unwrapped(at: time)
        if time < (now.advancedAt ?? transitionStart) + configuration.transition { return time }
        if isHeld || slides == 1 { return nil }
        return origin + Double(advances(through: time) + 1) * configuration.interval
    }

    /// The automatic page changes after `start` up to and including `end`, in order.
    public func pageChanges(after start: Double, through end: Double) -> [CarouselEvent] {
        let first = advances(through: start) + 1
        let last = advances(through: end)
        guard first <= last else { return [] }
        return (first...last).map { count in
            CarouselEvent(time: origin + Double(count) * configuration.interval, page: (page + count) % slides, cause: .timer)
        }
    }

    /// Folds the automatic advances up to `time` into the stored transition.
    private mutating func settle(at time: Double) {
        let now = unwrapped(at: time)
        if let advancedAt = now.advancedAt {
            page = now.page
            from = now.target - 1
            to = now.target
            transitionStart = advancedAt
            origin = advancedAt
        }
        let shift = (to / Double(slides)).rounded(.down) * Double(slides)
        from -= shift
        to -= shift
    }

    /// Starts a transition at `time` from wherever the carousel is to `target` (unwrapped).
    private mutating func slide(to target: Double, from position: Double, at time: Double, cause: CarouselEvent.Cause) -> CarouselEvent? {
        let newPage = Int(wrapped(target).rounded())
        from = position
        to = target
        transitionStart = time
        origin = time
        let changed = newPage != page
        page = newPage
        return changed ? CarouselEvent(time: time, page: newPage, cause: cause) : nil
    }

    /// Moves the carousel's schedule by `seconds` (an advance due at t is then due at t + `seconds`, a running transition
    /// with it), keeping only its place in the turn: the shift is taken modulo one turn (`interval` × slides) and
    /// applied backwards, so the carousel never waits for a schedule moved into its future and shows the slide the
    /// shifted schedule would show now. What a carousel turned by the wall clock needs when that clock is stepped.
    public mutating func shiftSchedule(by seconds: Double) {
        let turn = configuration.interval * Double(slides)
        guard seconds.isFinite, turn > 0 else { return }
        var back = seconds.truncatingRemainder(dividingBy: turn)
        if back > 0 { back -= turn }
        origin += back
        transitionStart += back
    }

    /// A viewer holds the carousel at `time`: automatic advances stop; a running transition finishes.
    public mutating func hold(at time: Double) {
        guard !isHeld else { return }
        settle(at: time)
        isHeld = true
    }

    /// The viewer lets go at `time`: the next automatic advance comes a full interval later.
    public mutating func release(at time: Double) {
        guard isHeld else { return }
        isHeld = false
        origin = time
    }

    /// Slides forward to the next slide at `time` (wrapping from the last to the first); the next
    /// automatic advance comes a full interval later.
    @discardableResult
    public mutating func next(at time: Double) -> CarouselEvent? {
        settle(at: time)
        let position = unwrapped(at: time).position
        return slide(to: to + 1, from: position, at: time, cause: .next)
    }

    /// Slides back to the previous slide at `time` (wrapping from the first to the last); the next
    /// automatic advance comes a full interval later.
    @discardableResult
    public mutating func previous(at time: Double) -> CarouselEvent? {
        settle(at: time)
        let position = unwrapped(at: time).position
        return slide(to: to - 1, from: position, at: time, cause: .previous)
    }

    /// Changes the number of slides at `time` (at least 1): the carousel stays on its page, or on the new last slide
    /// when its page is gone; a running transition ends there at once, and the next automatic advance keeps its
    /// schedule (a carousel that had a single slide first advances an interval later).
    public mutating func setSlideCount(_ count: Int, at time: Double) throws(AnimationError) {
        var changed = configuration
        changed.slides = count
        try changed.validate()
        settle(at: time)
        if slides == 1 { origin = time }  // a single slide never advanced: the first advance is an interval away
        let kept = Swift.min(page, count - 1)
        configuration = changed
        page = kept
        from = Double(kept)
        to = Double(kept)
        transitionStart = Swift.min(transitionStart, time - configuration.transition)
    }

    /// Slides directly to `page` at `time`; returns nil when it is already the page shown.
    @discardableResult
    public mutating func go(to page: Int, at time: Double) throws(AnimationError) -> CarouselEvent? {
        guard (0..<slides).contains(page) else {
            throw AnimationError(.outOfRange, "carousel page \(page) is not in 0…\(slides - 1)")
        }
        settle(at: time)
        guard page != self.page else { return nil }
        let position = wrapped(unwrapped(at: time).position)
        return slide(to: Double(page), from: position, at: time, cause: .goTo)
    }
}
