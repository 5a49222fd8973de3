/// The idempotency keys a change log remembers for a day: each metric request's `Idempotency-Key` (`r:KEY`, with every
/// metric of the change it committed), each batch item's `eventId` (`e:ID`, with that one metric) and each leaderboard
/// request's `Idempotency-Key` (`b:KEY`, with the board it committed). Filled from the
/// committed changes in sequence order and forgotten by their commit times, so a restarted node (journal, snapshot)
/// remembers exactly what it remembered before.
struct IdempotencyMemory: Equatable, Sendable {
    /// Seconds a key is remembered after the commit that used it.
    static let lifetime = 86_400.0
    /// The most keys remembered at once; past it the oldest are forgotten early (a producer sending keys faster than
    /// about 11 a second for a whole day).
    static let capacity = 1_000_000
    /// The most names remembered at once over every remembered board (a board's key answers with the whole board):
    /// past it the oldest keys are forgotten early, so keyed edits of a large board cost at most about 100 MB of
    /// memory and snapshot (a thousand-name board edited with a new key every second passes it after about 17
    /// minutes, a ten-name board after more than a day).
    static let defaultBoardEntryCapacity = 1_000_000
    /// This memory's ``defaultBoardEntryCapacity`` (smaller in tests).
    let boardEntryCapacity: Int

    struct Entry: Equatable, Sendable {
        var committedAt: Double
        /// The committed metrics the key answers with, in their batch's order (none for a board's key).
        var metrics: [StoredMetric]
        /// The committed board a leaderboard request's key answers with.
        var board: StoredLeaderboard? = nil
    }

    private(set) var entries: [String: Entry] = [:]
    /// Keys in the order they were remembered, with the commit time they were remembered at (a key remembered again
    /// later is found here twice; only its newest time counts).
    private var order: [(key: String, committedAt: Double)] = []
    private var orderStart = 0
    /// The names of every remembered board, counted against `boardEntryCapacity`.
    private var boardEntries = 0

    static func == (lhs: IdempotencyMemory, rhs: IdempotencyMemory) -> Bool { lhs.entries == rhs.entries }

    /// The memory key of a request's `Idempotency-Key`.
    static func requestKey(_ key: String) -> String { "r:" + key }
    /// The memory key of a batch item's `eventId`.
    static func eventKey(_ id: String) -> String { "e:" + id }

    /// The memory key of a leaderboard request's `Idempotency-Key`.
    static func boardKey(_ key: String) -> String { "b:" + key }

    /// The metrics `key` answers with, if it was used less than a day before `now`.
    func lookup(_ key: String, at now: Double) -> [StoredMetric]? {
        guard let entry = entries[key], entry.committedAt > now - Self.lifetime, entry.board == nil else { return nil }
        return entry.metrics
    }

    /// The board a leaderboard request's `Idempotency-Key` (its memory key) answers with, if it was used less than a
    /// day before `now`.
    func board(_ key: String, at now: Double) -> StoredLeaderboard? {
        guard let entry = entries[key], entry.committedAt > now - Self.lifetime else { return nil }
        return entry.board
    }

    /// Remembers the keys of a committed metric batch, and forgets those older than a day before its commit time.
    mutating func remember(_ metrics: [StoredMetric]) {
        guard let first = metrics.first else { return }
        let time = first.updatedAt
        if let key = first.requestKey { insert(Self.requestKey(key), Entry(committedAt: time, metrics: metrics)) }
        for metric in metrics {
            if let id = metric.eventID { insert(Self.eventKey(id), Entry(committedAt: time, metrics: [metric])) }
        }
        forget(before: time - Self.lifetime)
    }

    /// Remembers the key of a committed board, if its request had one.
    mutating func remember(_ board: StoredLeaderboard) {
        guard let key = board.requestKey else { return }
        insert(Self.boardKey(key), Entry(committedAt: board.updatedAt, metrics: [], board: board))
        forget(before: board.updatedAt - Self.lifetime)
    }

    private mutating func insert(_ key: String, _ entry: Entry) {
        boardEntries += (entry.board?.entries.count ?? 0) - (entries[key]?.board?.entries.count ?? 0)
        entries[key] = entry
        order.append((key, entry.committedAt))
        while entries.count > Self.capacity || boardEntries > boardEntryCapacity, orderStart < order.count {
            dropOldest()
        }
    }

    /// Forgets every key used before `time`.
    mutating func forget(before time: Double) {
        while orderStart < order.count, order[orderStart].committedAt < time { dropOldest() }
    }

    private mutating func dropOldest() {
        let (key, time) = order[orderStart]
        orderStart += 1
        if let entry = entries[key], entry.committedAt == time {
            boardEntries -= entry.board?.entries.count ?? 0
            entries[key] = nil
        }
        if orderStart > 1_024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// `count: UInt32`, then per key, oldest first: `key | committedAt: Float64 | metric count: UInt32` and each
    /// metric as kind 9 writes it; a board's key has metric count 0 and then its board as kind 14 writes it.
    func encode(into writer: inout BinaryWriter) {
        let sorted = entries.sorted { ($0.value.committedAt, $0.key) < ($1.value.committedAt, $1.key) }
        writer.write(UInt32(sorted.count))
        for (key, entry) in sorted {
            writer.write(key)
            writer.write(entry.committedAt)
            if let board = entry.board {
                writer.write(UInt32(0))
                KeyedLeaderboard(board).encode(into: &writer)
            } else {
                writer.write(parts: entry.metrics.map(ExtendedMetric.init))
            }
        }
    }

    /// Reads what `encode(into:)` wrote; `nil` when it is not well formed.
    init?(reader: inout BinaryReader) {
        boardEntryCapacity = Self.defaultBoardEntryCapacity
        guard let count = reader.read(UInt32.self) else { return nil }
        for _ in 0..<count {
            guard let key = reader.readString(), let time = reader.readDouble(),
                let metrics = reader.readParts(ExtendedMetric.self, counts: 0...UInt32.max)
            else { return nil }
            if metrics.isEmpty {
                guard let board = KeyedLeaderboard(reader: &reader) else { return nil }
                insert(key, Entry(committedAt: time, metrics: [], board: board.base))
            } else {
                insert(key, Entry(committedAt: time, metrics: metrics.map(\.base)))
            }
        }
    }

    init(boardEntryCapacity: Int = defaultBoardEntryCapacity) {
        self.boardEntryCapacity = boardEntryCapacity
    }
}
