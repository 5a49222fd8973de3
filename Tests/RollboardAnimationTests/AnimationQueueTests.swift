import RollboardTestSupport
import Testing
import RollboardAnimation

@Suite("AnimationQueue")
struct AnimationQueueTests {
    let odometer = try! Odometer()

    @Test("changes arriving mid-animation play in order, each from the value queued before it")
    func playsInOrder() throws {
        var queue = try AnimationQueue(odometer, value: 0)
        try queue.enqueue(5, at: 0)       // 0 → 5: 0.3 × 1 × 5 = 1.5 s
        try queue.enqueue(7, at: 0.5)     // waits; 5 → 7: 0.6 s, from 1.5 to 2.1
        try queue.enqueue(3, at: 1.0)     // waits; 7 → 3: 1.2 s, from 2.1 to 3.3
        #expect(queue.state(at: 1.0).target == 5)
        #expect(queue.state(at: 1.5).digits == [5])
        #expect(queue.state(at: 1.8).target == 7)
        #expect(queue.state(at: 2.1).digits == [7])
        #expect(queue.state(at: 2.5).target == 3)
        #expect(isClose(queue.restTime, 3.3))
        #expect(queue.pendingCount(at: 1.0) == 3)
        #expect(!queue.isAtRest(at: 3.2) && queue.isAtRest(at: 3.3))
        #expect(queue.state(at: 3.3) == queue.target)
    }

    @Test("a change to the value queued last is a no-op")
    func sameValueIsNoOp() throws {
        var queue = try AnimationQueue(odometer, value: 0)
        try queue.enqueue(5, at: 0)
        try queue.enqueue(5, at: 0.5)
        #expect(queue.pendingCount(at: 0.5) == 1)
        #expect(queue.restTime == 1.5)
        try queue.enqueue(0, at: 2)
        try queue.enqueue(0, at: 2.1)
        #expect(queue.pendingCount(at: 2.1) == 1)
    }

    @Test("animated: false shows the value at once and drops running and waiting changes")
    func jumps() throws {
        var queue = try AnimationQueue(odometer, value: 0)
        try queue.enqueue(5, at: 0)
        try queue.enqueue(9, at: 0.2)
        try queue.enqueue(42, at: 0.5, animated: false)
        #expect(queue.state(at: 0.5).digits == [4, 2])
        #expect(queue.isAtRest(at: 0.5))
        #expect(queue.pendingCount(at: 0.5) == 0)
    }

    @Test("a restart rests on the new value at once and keeps the backlog, lag bound and policy")
    func restarts() throws {
        var queue = try AnimationQueue(odometer, value: 0, at: 1, backlog: 2, maxLag: 4, policy: .latest)
        try queue.enqueue(5, at: 1)
        try queue.enqueue(9, at: 1.2)
        try queue.restart(on: 42, at: 2)
        #expect(queue.state(at: 2).digits == [4, 2])
        #expect(queue.isAtRest(at: 2) && queue.pendingCount(at: 2) == 0)
        #expect(queue.restTime == 2)
        #expect(queue.backlog == 2 && queue.maxLag == 4 && queue.policy == .latest)
        try queue.enqueue(50, at: 2.5)
        #expect(queue.state(at: 2.5).target == 50)
    }

    @Test("an overflowing backlog collapses every waiting change into one move to the newest value")
    func collapses() throws {
        var queue = try AnimationQueue(odometer, value: 0, backlog: 2)
        try queue.enqueue(1, at: 0)       // running until 0.3
        try queue.enqueue(2, at: 0.1)
        try queue.enqueue(3, at: 0.1)     // two waiting: the backlog is full
        try queue.enqueue(9, at: 0.2)     // overflow: 2 and 3 collapse with 9 into 1 → 9
        #expect(queue.pendingCount(at: 0.2) == 2)
        #expect(queue.state(at: 0.31).target == 9)
        #expect(isClose(queue.restTime, 0.3 + 0.3 * 8))  // 1 → 9 takes 0.3 × 1 × 8 s
        #expect(queue.target.digits == [9])
    }

    @Test("times going backwards count as the latest time seen")
    func clampsTime() throws {
        var queue = try AnimationQueue(odometer, value: 0)
        try queue.enqueue(5, at: 10)
        try queue.enqueue(6, at: 2)
        #expect(queue.state(at: 11.4).target == 5)
        #expect(isClose(queue.restTime, 11.5 + 0.3))
    }

    @Test("refused changes leave the queue as it was", arguments: [
        (Double.nan, 1.0, nil as Double?, AnimationError.notFinite),
        (1e9, 1, nil, .tooWide),
        (5, .infinity, nil, .invalidTime),
        (5, 1, -1, .invalidInterval),
        (5, 1, .nan, .invalidInterval),
    ])
    func refuses(value: Double, time: Double, interval: Double?, error: AnimationError) throws {
        var queue = try AnimationQueue(odometer, value: 3)
        let before = queue.target
        #expect(throws: error) { try queue.enqueue(value, at: time, interval: interval) }
        #expect(queue.target == before && queue.restTime == 0)
    }

    @Test("a backlog below one is refused")
    func refusesEmptyBacklog() {
        #expect(throws: AnimationError.invalidConfiguration) { try AnimationQueue(odometer, value: 0, backlog: 0) }
    }

    @Test("counters and wheels queue like odometers")
    func otherKinds() throws {
        let counter = try Counter(configuration: CounterConfiguration(duration: 1, format: NumberFormat(format: "%d")))
        var counting = try AnimationQueue(counter, value: 0)
        try counting.enqueue(100, at: 0)
        try counting.enqueue(50, at: 0.5)
        #expect(counting.state(at: 1.5).target == 50)
        #expect(counting.restTime == 2)
        let wheel = try Wheel(contents: ["A", "B", "C", "D"])
        var turning = try AnimationQueue(wheel, value: 0)
        try turning.enqueue(wheel.position(forProgress: 0.4), at: 0)
        #expect(turning.state(at: 0.5).position == 1)
    }

    @Test("over many random changes the queue never loses the newest value and its backlog stays bounded")
    func neverLosesNewest() throws {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let backlog = Int.random(in: 1...8, using: &generator)
            var queue = try AnimationQueue(odometer, value: 0, backlog: backlog)
            var time = 0.0
            var newest = 0.0
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                time += Double.random(in: 0...1.5, using: &generator)
                newest = Double(Int.random(in: -99_999_999...99_999_999, using: &generator))
                let animated = Int.random(in: 0..<10, using: &generator) > 0
                try queue.enqueue(newest, at: time, animated: animated)
                #expect(queue.pendingCount(at: time) <= backlog + 1)
                #expect(queue.restTime.isFinite && queue.restTime >= time)
            }
            #expect(queue.target.target == newest)
            #expect(queue.state(at: queue.restTime) == queue.target)
        }
    }

    // MARK: Lag bound

    /// A 1 Hz producer of growing revenue on a 3 s odometer: each move is longer than the gap between posts.
    private func producer(
        maxLag: Double?, policy: QueuePolicy = .fifo
    ) throws -> (lags: [Double], shown: [Double], last: Double) {
        let odometer = try Odometer(configuration: OdometerConfiguration(columns: .growing(maximum: 10), maxDuration: 3))
        var queue = try AnimationQueue(odometer, value: 0, backlog: 8, maxLag: maxLag, policy: policy)
        var lags: [Double] = []
        var shown: [Double] = []
        var value = 1_000.0
        for second in 0..<60 {
            let now = Double(second)
            shown.append(queue.state(at: now).target)
            value += 1_234.5 * Double(second % 7 + 1)
            try queue.enqueue(value, at: now)
            lags.append(queue.restTime - now)
        }
        #expect(queue.target.target == value)
        return (lags, shown, value)
    }

    @Test("a producer posting every second for a minute keeps the screen within maxLag under every policy",
          arguments: QueuePolicy.allCases)
    func lagIsBounded(policy: QueuePolicy) throws {
        let run = try producer(maxLag: 6, policy: policy)
        #expect(run.lags.allSatisfy { $0 <= 6 + 1e-9 }, "lags \(run.lags.map { ($0 * 100).rounded() / 100 })")
        #expect(run.shown.count == 60)
    }

    @Test("without maxLag the same producer falls behind by more than the bound")
    func unboundedFallsBehind() throws {
        let run = try producer(maxLag: nil)
        #expect(run.lags.contains { $0 > 6 }, "max lag \(run.lags.max() ?? 0)")
    }

    @Test("fifo still plays every value in order when the producer leaves time for it")
    func fifoWithTime() throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(maxDuration: 3))
        var queue = try AnimationQueue(odometer, value: 0, maxLag: 6)
        for (index, value) in [120.0, 4_500, 77, 90_000].enumerated() {
            let posted = Double(index) * 4
            try queue.enqueue(value, at: posted)
            #expect(queue.state(at: posted + 3) == queue.target && queue.target.target == value)
        }
    }

    @Test("a single move longer than maxLag is played within it")
    func singleMoveWithinLag() throws {
        var queue = try AnimationQueue(odometer, value: 0, maxLag: 2)
        try queue.enqueue(12_345_678, at: 10)
        #expect(isClose(queue.restTime, 12))
        #expect(queue.state(at: 12).target == 12_345_678)
    }

    @Test("a maxLag that is not a positive number of seconds is refused", arguments: [0.0, -2, .nan, .infinity])
    func invalidMaxLag(_ seconds: Double) {
        #expect(throws: AnimationError.invalidConfiguration) { try AnimationQueue(odometer, value: 0, maxLag: seconds) }
    }

    // MARK: Policies

    @Test("latest lets the running change finish and shows the newest value next, skipping the ones between")
    func latestShowsNewestNext() throws {
        var queue = try AnimationQueue(odometer, value: 0, policy: .latest)
        try queue.enqueue(5, at: 0)       // 0 → 5 runs until 1.5
        try queue.enqueue(7, at: 0.5)
        try queue.enqueue(3, at: 1.0)     // replaces 7
        #expect(queue.state(at: 1.4).target == 5)
        #expect(queue.state(at: 1.5).digits == [5])
        #expect(queue.state(at: 1.6).target == 3)
        #expect(queue.pendingCount(at: 1.0) == 2)
        #expect(isClose(queue.restTime, 1.5 + 0.6))  // 5 → 3: 0.3 × 1 × 2 s
    }

    @Test("a change can name its own policy, whatever the queue's default")
    func perChangePolicy() throws {
        var queue = try AnimationQueue(odometer, value: 0)
        try queue.enqueue(5, at: 0)
        try queue.enqueue(7, at: 0.5)
        try queue.enqueue(3, at: 1.0, policy: .latest)
        #expect(queue.pendingCount(at: 1.0) == 2)
        #expect(queue.state(at: 1.6).target == 3)
        try queue.enqueue(9, at: 1.7, policy: .retarget)
        #expect(queue.pendingCount(at: 1.7) == 1)
        #expect(queue.state(at: 1.7).target == 9)
    }

    /// The value an odometer's columns read, signed, in units of the last column.
    private func reading(_ state: OdometerState) -> Double {
        var magnitude = 0.0
        for position in state.digits { magnitude = magnitude * 10 + position.rounded(.down) }
        if let last = state.digits.last { magnitude += last - last.rounded(.down) }
        return state.negative ? -magnitude : magnitude
    }

    @Test("retarget bends a rising odometer towards each new value without ever turning back", arguments: [0.0, 0.35, 0.8])
    func retargetNeverReverses(offset: Double) throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(columns: .growing(maximum: 10), decimals: 2, maxDuration: 3))
        var queue = try AnimationQueue(odometer, value: 1_999.99, maxLag: 6, policy: .retarget)
        var value = 1_999.99
        var previous = -Double.infinity
        var time = 0.0
        for post in 0..<30 {
            value += [0.01, 12.5, 0.37, 480, 3.2][post % 5]
            try queue.enqueue(value, at: Double(post) + offset)
            while time < Double(post + 1) + offset {
                let shown = reading(queue.state(at: time))
                #expect(shown >= previous - 1e-6, "at \(time): \(shown) after \(previous)")
                previous = max(previous, shown)
                time += 1.0 / 60
            }
        }
        #expect(isClose(queue.state(at: queue.restTime).target, value, tolerance: 1e-9))
        #expect(isClose(reading(queue.state(at: queue.restTime)), (value * 100).rounded()))
    }

    @Test("retarget moves a counter and a wheel on from where they are, without a jump")
    func retargetIsContinuous() throws {
        let counter = try Counter(configuration: CounterConfiguration(duration: 2, format: NumberFormat(format: "%.2f")))
        var counting = try AnimationQueue(counter, value: 0, policy: .retarget)
        try counting.enqueue(100, at: 0)
        let before = counting.state(at: 1).value
        try counting.enqueue(200, at: 1)
        #expect(isClose(counting.state(at: 1).value, before, tolerance: 1e-6))
        #expect(counting.state(at: 1.05).value > before)
        #expect(counting.state(at: 3).value == 200)

        let wheel = try Wheel(contents: ["Calm", "Busy", "Peak", "Overload"], duration: 1)
        var turning = try AnimationQueue(wheel, value: 0, policy: .retarget)
        try turning.enqueue(2, at: 0)
        let halfway = turning.state(at: 0.5).position
        try turning.enqueue(3, at: 0.5)
        #expect(isClose(turning.state(at: 0.5).position, halfway, tolerance: 1e-6))
        #expect(turning.state(at: 0.52).position > halfway)
        #expect(turning.state(at: 1.5).position == 3)
    }

    @Test("retarget of a one-cent change carries every column together, like a mechanical odometer")
    func retargetCarries() throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(columns: .fixed(6), decimals: 2, maxDuration: 3))
        var queue = try AnimationQueue(odometer, value: 1_999.99, policy: .retarget)
        try queue.enqueue(2_000, at: 0)
        #expect(isClose(queue.restTime, 3))  // the article's 10.8 s, bounded by maxDuration
        let middle = queue.state(at: 1.5).digits
        #expect(isClose(Array(middle), [1.5, 9.5, 9.5, 9.5, 9.5, 9.5], tolerance: 1e-6))
        #expect(queue.state(at: 3).digits == [2, 0, 0, 0, 0, 0])
    }
}
