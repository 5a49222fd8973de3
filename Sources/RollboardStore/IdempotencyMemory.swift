package import RollboardCore
package import RollboardConfig

/// The idempotency keys a change log remembers for a day: each metric request's `Idempotency-Key` (`r:KEY`, with every
/// metric of the change it committed), each batch item's `eventId` (`e:ID`, with that one metric) and each leaderboard
/// request's `Idempotency-Key` (`b:KEY`, with the board it committed), each as its compact ``RememberedAnswer``.
/// Filled from the committed changes in sequence order and forgotten by their commit times, or earlier, oldest first,
/// once what it keeps passes its budget of bytes; so a restarted node (journal, snapshot) remembers exactly what it
/// remembered before.
package struct IdempotencyMemory: Equatable, Sendable {
    /// Seconds a key is remembered after the commit that used it.
    package static let lifetime = 86_400.0
    /// What a key costs beyond its name and its answer's bytes: about what its place in memory (the table's slot, the
    /// order it was remembered in, two allocations) takes.
    static let entryOverhead = 160
    /// The most characters of a key or event id an answer shows.
    package static let shownLength = 32

    /// The most bytes (``cost(key:answer:)`` summed) remembered at once: past it the oldest keys are forgotten early.
    let budget: Int
    /// The bytes remembered now.
    private(set) var bytes = 0

    struct Entry: Sendable {
        var committedAt: Double
        /// When it was remembered, among every key (a key remembered again counts from its newest time).
        var ordinal: UInt64
        /// The ``RememberedAnswer``, encoded.
        var answer: [UInt8]
    }

    private(set) var entries: [String: Entry] = [:]
    /// Keys in the order they were remembered (a key remembered again later is found here twice; only the element
    /// with its entry's ordinal counts).
    private var order: [(key: String, ordinal: UInt64)] = []
    private var orderStart = 0
    private var nextOrdinal: UInt64 = 0

    init(budget: Int = ServerSettings.Defaults.idempotencyMemoryBytes) {
        self.budget = budget
    }

    /// Two memories are equal when they remember the same keys with the same answers, in the same order.
    package static func == (lhs: IdempotencyMemory, rhs: IdempotencyMemory) -> Bool {
        lhs.remembered.elementsEqual(rhs.remembered) {
            $0.key == $1.key && $0.entry.committedAt == $1.entry.committedAt && $0.entry.answer == $1.entry.answer
        }
    }

    /// Every key remembered, oldest first.
    var remembered: [(key: String, entry: Entry)] {
        order[orderStart...].compactMap { element in
            guard let entry = entries[element.key], entry.ordinal == element.ordinal else { return nil }
            return (element.key, entry)
        }
    }

    /// The memory key of a request's `Idempotency-Key`.
    package static func requestKey(_ key: String) -> String { "r:" + key }
    /// The memory key of a batch item's `eventId`.
    package static func eventKey(_ id: String) -> String { "e:" + id }
    /// The memory key of a leaderboard request's `Idempotency-Key`.
    static func boardKey(_ key: String) -> String { "b:" + key }

    /// What remembering `answer` under memory key `key` counts against the budget, on the journal and on Redis alike.
    package static func cost(key: String, answer: [UInt8]) -> Int { key.utf8.count + answer.count + entryOverhead }

    /// A key or event id as an answer names it: quoted, whole up to ``shownLength`` characters, else its first ones,
    /// an ellipsis and its length.
    static func shown(_ key: String) -> String {
        let scalars = key.unicodeScalars
        guard scalars.count > shownLength else { return "\"" + key + "\"" }
        return "\"" + String(String.UnicodeScalarView(scalars.prefix(shownLength))) + "…\" (\(key.utf8.count) bytes)"
    }

    /// The metrics `key` answers with, if it was used less than a day before `now`.
    func lookup(_ key: String, at now: Double) -> [StoredMetric]? {
        guard let entry = entries[key], entry.committedAt > now - Self.lifetime,
            case .metrics(let metrics)? = RememberedAnswer(encoded: entry.answer[...])
        else { return nil }
        return metrics
    }

    /// The board a leaderboard request's `Idempotency-Key` (its memory key) answers with, if it was used less than a
    /// day before `now`; its `request` is the digest of the request that used the key.
    func board(_ key: String, at now: Double) -> StoredLeaderboard? {
        guard let entry = entries[key], entry.committedAt > now - Self.lifetime,
            case .board(let board)? = RememberedAnswer(encoded: entry.answer[...])
        else { return nil }
        return board
    }

    /// Remembers the keys of a committed metric batch, and forgets those older than a day before its commit time.
    mutating func remember(_ metrics: [StoredMetric]) {
        guard let first = metrics.first else { return }
        let time = first.updatedAt
        if let key = first.requestKey { insert(Self.requestKey(key), RememberedAnswer(metrics)) }
        for metric in metrics {
            if let id = metric.eventID { insert(Self.eventKey(id), RememberedAnswer([metric])) }
        }
        forget(before: time - Self.lifetime)
    }

    /// Remembers the key of a committed board, if its request had one.
    mutating func remember(_ board: StoredLeaderboard) {
        guard let key = board.requestKey else { return }
        insert(Self.boardKey(key), RememberedAnswer(board))
        forget(before: board.updatedAt - Self.lifetime)
    }

    private mutating func insert(_ key: String, _ answer: RememberedAnswer) {
        insert(key, encoded: answer.encoded, committedAt: answer.committedAt)
    }

    private mutating func insert(_ key: String, encoded answer: [UInt8], committedAt: Double) {
        if let old = entries[key] { bytes -= Self.cost(key: key, answer: old.answer) }
        entries[key] = Entry(committedAt: committedAt, ordinal: nextOrdinal, answer: answer)
        order.append((key, nextOrdinal))
        nextOrdinal += 1
        bytes += Self.cost(key: key, answer: answer)
        while bytes > budget, orderStart < order.count { dropOldest() }
    }

    /// Forgets every key used before `time` (in the order they were remembered: a key behind a newer one waits for
    /// it).
    mutating func forget(before time: Double) {
        while orderStart < order.count {
            let (key, ordinal) = order[orderStart]
            if let entry = entries[key], entry.ordinal == ordinal, entry.committedAt >= time { return }
            dropOldest()
        }
    }

    private mutating func dropOldest() {
        let (key, ordinal) = order[orderStart]
        orderStart += 1
        if let entry = entries[key], entry.ordinal == ordinal {
            bytes -= Self.cost(key: key, answer: entry.answer)
            entries[key] = nil
        }
        if orderStart > 1_024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// Marks the encoding below, which a count of keys (the encoding before it) never is.
    private static let encodingMark = UInt32.max

    /// `0xFFFFFFFF | count: UInt32 | count × (key | answer length: UInt32 | answer)`, oldest first, each answer as
    /// ``RememberedAnswer`` encodes it; a memory without keys as `count: UInt32` 0, which both encodings read.
    func encode(into writer: inout BinaryWriter) {
        let kept = remembered
        guard !kept.isEmpty else { return writer.write(UInt32(0)) }
        writer.write(Self.encodingMark)
        writer.write(UInt32(kept.count))
        for (key, entry) in kept {
            writer.write(key)
            writer.write(UInt32(entry.answer.count))
            writer.write(raw: entry.answer)
        }
    }

    /// Reads what `encode(into:)` wrote, or the encoding before it (`count: UInt32`, then per key `key |
    /// committedAt: Float64 | metric count: UInt32` and each metric as kind 9 writes it, or for a board's key metric
    /// count 0 and its board as kind 14 writes it), keeping at most `budget` bytes; `nil` when it is not well formed.
    init?(reader: inout BinaryReader, budget: Int = ServerSettings.Defaults.idempotencyMemoryBytes) {
        self.budget = budget
        guard let first = reader.read(UInt32.self) else { return nil }
        if first == Self.encodingMark {
            guard let count = reader.read(UInt32.self) else { return nil }
            for _ in 0..<count {
                guard let key = reader.readString(), let length = reader.read(UInt32.self),
                    let bytes = reader.readRaw(Int(length)), let answer = RememberedAnswer(encoded: bytes)
                else { return nil }
                insert(key, encoded: Array(bytes), committedAt: answer.committedAt)
            }
            return
        }
        var older: [(key: String, time: Double, answer: RememberedAnswer)] = []
        for _ in 0..<first {
            guard let key = reader.readString(), let time = reader.readDouble(),
                let metrics = reader.readParts(ExtendedMetric.self, counts: 0...UInt32.max)
            else { return nil }
            if metrics.isEmpty {
                guard let board = KeyedLeaderboard(reader: &reader) else { return nil }
                older.append((key, time, RememberedAnswer(board.base)))
            } else {
                older.append((key, time, RememberedAnswer(metrics.map(\.base))))
            }
        }
        for (key, time, answer) in older { insert(key, encoded: answer.encoded, committedAt: time) }
    }
}
