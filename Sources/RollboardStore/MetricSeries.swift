package import RollboardCore
package import RollboardConfig

/// One metric's series, derived from its committed changes in sequence order and nothing else (the commit times the
/// log stamped), so every node of a cluster and a restarted node hold the same one: the raw changes of the last
/// `SeriesLimits.retention` seconds (at most `maxPoints`), and per-minute and per-hour rollups kept for
/// `minuteRetention` and `hourRetention`. Every bound is judged against the newest commit time the series has seen,
/// never against a clock.
package struct MetricSeries: Equatable, Sendable {
    /// One committed change.
    package struct Point: Equatable, Sendable {
        package var seq: UInt64
        package var time: Double
        package var value: Double
        /// What was added, when the change was an increment.
        package var increment: Double? = nil

        package init(seq: UInt64, time: Double, value: Double, increment: Double? = nil) {
            self.seq = seq
            self.time = time
            self.value = value
            self.increment = increment
        }
    }

    /// The changes committed within one minute or hour: `start` is its first second (a multiple of its width).
    package struct Bucket: Equatable, Sendable {
        package var start: Int64
        package var first: Double
        package var last: Double
        package var min: Double
        package var max: Double
        package var count: UInt32
        /// The sum of the increments among the changes (0 when none was an increment).
        package var incrementSum: Double
        /// The sum of the values (an average is `valueSum / count`).
        var valueSum: Double

        init(start: Int64, _ point: Point, increment: Double?) {
            self.start = start
            first = point.value
            last = point.value
            min = point.value
            max = point.value
            count = 1
            incrementSum = increment ?? 0
            valueSum = point.value
        }

        mutating func add(_ point: Point, increment: Double?) {
            last = point.value
            min = Swift.min(min, point.value)
            max = Swift.max(max, point.value)
            count += 1
            incrementSum += increment ?? 0
            valueSum += point.value
        }
    }

    private(set) var raw: [Point] = []
    private(set) var minutes: [Bucket] = []
    private(set) var hours: [Bucket] = []
    /// The newest commit time seen.
    package private(set) var newest = -Double.infinity

    /// Adds a committed change and forgets what fell out of the bounds.
    mutating func add(_ metric: StoredMetric, limits: SeriesLimits) {
        let point = Point(seq: metric.seq, time: metric.updatedAt, value: metric.value, increment: metric.increment)
        newest = Swift.max(newest, point.time)
        raw.append(point)
        // A time no clock gives (one read from a damaged record) has no bucket: `Int64` of it would trap.
        if abs(point.time) < 1e15 {
            Self.add(point, increment: metric.increment, width: 60, to: &minutes)
            Self.add(point, increment: metric.increment, width: 3_600, to: &hours)
        }
        trim(limits)
    }

    /// Adds `point` to the bucket of its time: the last one in the common case, else the one found (commit times of
    /// different nodes may step back a little).
    private static func add(_ point: Point, increment: Double?, width: Double, to buckets: inout [Bucket]) {
        let start = Int64((point.time / width).rounded(.down) * width)
        if let last = buckets.last, last.start == start {
            buckets[buckets.count - 1].add(point, increment: increment)
        } else if buckets.last.map({ $0.start < start }) ?? true {
            buckets.append(Bucket(start: start, point, increment: increment))
        } else {
            let index = buckets.partitioningIndex { $0.start >= start }
            if index < buckets.count, buckets[index].start == start {
                buckets[index].add(point, increment: increment)
            } else {
                buckets.insert(Bucket(start: start, point, increment: increment), at: index)
            }
        }
    }

    /// Raw points past the bounds are dropped in chunks of at least this many (or a 64th of the points), so adding
    /// stays amortised O(1); until then they are kept but not answered (see ``points(from:to:limits:)``).
    static let trimChunk = 1_024

    private mutating func trim(_ limits: SeriesLimits) {
        let rawCut = raw.partitioningIndex { $0.time >= newest - limits.retention }
        let drop = Swift.max(rawCut, raw.count - limits.maxPoints)
        if drop >= Self.trimChunk || (drop > 0 && drop * 64 >= raw.count) { raw.removeFirst(drop) }
        Self.trim(&minutes, before: newest - limits.minuteRetention)
        Self.trim(&hours, before: newest - limits.hourRetention)
    }

    private static func trim(_ buckets: inout [Bucket], before time: Double) {
        let cut = buckets.partitioningIndex { Double($0.start) >= time }
        if cut > 0 { buckets.removeFirst(cut) }
    }

    /// The raw points with `from ≤ time < to`.
    func points(from: Double, to: Double, limits: SeriesLimits) -> ArraySlice<Point> {
        let kept = raw.suffix(limits.maxPoints).filter { $0.time >= newest - limits.retention }
        return kept.filter { $0.time >= from && $0.time < to }[...]
    }

    /// One page of ``points(from:to:limits:)`` in sequence order: up to `limit` points numbered after `after`, and
    /// whether more follow. Finds its first point by the sequence number and stops one past the page, so a page costs
    /// about what it holds however long the series is.
    package func page(
        from: Double, to: Double, after: UInt64, limit: Int, limits: SeriesLimits
    ) -> (points: [Point], more: Bool) {
        let oldest = newest - limits.retention
        var index = Swift.max(raw.count - limits.maxPoints, raw.partitioningIndex { $0.seq > after }, 0)
        var points: [Point] = []
        points.reserveCapacity(Swift.min(limit, raw.count - index))
        while index < raw.count {
            let point = raw[index]
            index += 1
            guard point.time >= oldest, point.time >= from, point.time < to else { continue }
            if points.count == limit { return (points, true) }
            points.append(point)
        }
        return (points, false)
    }

    /// One page of ``buckets(from:to:step:)``: up to `limit` of them, and the start of the next one when more follow.
    package func bucketPage(from: Double, to: Double, step: Int64, limit: Int) -> (buckets: [Bucket], next: Int64?) {
        var merged = buckets(from: from, to: to, step: step, stopAfter: limit + 1)
        guard merged.count > limit else { return (merged, nil) }
        let next = merged[limit].start
        merged.removeLast(merged.count - limit)
        return (merged, next)
    }

    /// The rollups of width `step` (a multiple of a minute or of an hour) with `from ≤ start < to`, merged from the
    /// minute buckets (steps under an hour) or the hour buckets.
    package func buckets(from: Double, to: Double, step: Int64, stopAfter: Int = .max) -> [Bucket] {
        let source = step % 3_600 == 0 ? hours : minutes
        var merged: [Bucket] = []
        let first = source.partitioningIndex { Double($0.start) >= from }
        for bucket in source[first...] {
            if Double(bucket.start) >= to { break }
            let start = bucket.start - ((bucket.start % step) + step) % step
            if merged.last?.start != start, merged.count == stopAfter { break }
            if var last = merged.last, last.start == start {
                last.last = bucket.last
                last.min = Swift.min(last.min, bucket.min)
                last.max = Swift.max(last.max, bucket.max)
                last.count += bucket.count
                last.incrementSum += bucket.incrementSum
                last.valueSum += bucket.valueSum
                merged[merged.count - 1] = last
            } else {
                var copy = bucket
                copy.start = start
                merged.append(copy)
            }
        }
        return merged
    }
}

extension MetricSeries {
    /// `newest: Float64 | raw count: UInt32 | raw × (seq: UInt64 | time | value | increment (NaN = none): Float64) |
    /// minute count:
    /// UInt32 | minutes × bucket | hour count: UInt32 | hours × bucket`, a bucket being `start: Int64 | first | last |
    /// min | max: Float64 | count: UInt32 | incrementSum | valueSum: Float64`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(newest)
        writer.write(UInt32(raw.count))
        for point in raw {
            writer.write(point.seq)
            writer.write(point.time)
            writer.write(point.value)
            writer.write(optional: point.increment)
        }
        for buckets in [minutes, hours] {
            writer.write(UInt32(buckets.count))
            for bucket in buckets {
                writer.write(bucket.start)
                for value in [bucket.first, bucket.last, bucket.min, bucket.max] { writer.write(value) }
                writer.write(bucket.count)
                writer.write(bucket.incrementSum)
                writer.write(bucket.valueSum)
            }
        }
    }

    init?(reader: inout BinaryReader) {
        guard let newest = reader.readDouble(), let rawCount = reader.read(UInt32.self) else { return nil }
        self.newest = newest
        for _ in 0..<rawCount {
            guard let seq = reader.read(UInt64.self), let time = reader.readDouble(), let value = reader.readDouble(),
                let increment = reader.readOptionalDouble()
            else { return nil }
            raw.append(Point(seq: seq, time: time, value: value, increment: increment))
        }
        var both: [[Bucket]] = []
        for _ in 0..<2 {
            guard let count = reader.read(UInt32.self) else { return nil }
            var buckets: [Bucket] = []
            for _ in 0..<count {
                guard let start = reader.read(Int64.self), let first = reader.readDouble(),
                    let last = reader.readDouble(), let min = reader.readDouble(), let max = reader.readDouble(),
                    let points = reader.read(UInt32.self), let sum = reader.readDouble(),
                    let valueSum = reader.readDouble()
                else { return nil }
                var bucket = Bucket(start: start, Point(seq: 0, time: 0, value: first), increment: sum)
                bucket.last = last
                bucket.min = min
                bucket.max = max
                bucket.count = points
                bucket.valueSum = valueSum
                buckets.append(bucket)
            }
            both.append(buckets)
        }
        minutes = both[0]
        hours = both[1]
    }
}

extension Array {
    /// The first index whose element satisfies `belongs`, for a predicate false up to some index and true from there.
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
