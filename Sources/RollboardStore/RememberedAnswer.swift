import RollboardAnimation
package import RollboardConfig
package import RollboardCore

/// What an idempotency key keeps to answer a retry, and no more: for a metric request's `Idempotency-Key` or an
/// item's `eventId`, each part the change committed as its metric id, total and increment (its sequence numbers run
/// on from the first, as a change's parts do; interval, animation, policy and event ids are not part of an answer);
/// for a leaderboard request's key, the board it committed and the SHA-256 of the request's canonical line (enough to
/// tell a retry from another request). The journal's memory, its snapshot and Redis all keep this one encoding:
///
/// ```
/// metrics  0xA1 | firstSeq: UInt64 | committedAt: Float64 | count: UInt32 |
///          count × (id | flags: UInt8 (1 = an increment) | value: Float64 | increment: Float64 (flag 1 only))
/// board    0xA2 | a kind 11 board | request digest: 32 bytes
/// ```
///
/// On Redis the sequence numbers are relative (firstSeq 0, the board's seq 0) behind a `SEQ:` prefix; a value
/// written before this encoding (`SEQ:` and a journal record) still reads.
package enum RememberedAnswer: Equatable, Sendable {
    /// The committed parts: `id`, `value`, `seq`, `updatedAt` and `increment` only.
    case metrics([StoredMetric])
    /// The committed board, its `request` the hex SHA-256 of the edit's canonical line.
    case board(StoredLeaderboard)

    static let metricsTag: UInt8 = 0xA1
    static let boardTag: UInt8 = 0xA2

    /// The answer of a committed batch's parts (one or more, numbered consecutively).
    package init(_ metrics: [StoredMetric]) {
        self = .metrics(
            metrics.map { metric in
                StoredMetric(
                    id: metric.id, value: metric.value, seq: metric.seq, updatedAt: metric.updatedAt,
                    increment: metric.increment)
            })
    }

    /// The answer of a keyed board: `request` (the edit's canonical line, or already its digest) becomes its digest.
    package init(_ board: StoredLeaderboard) {
        var kept = board.withoutRequest
        kept.request = board.request.map(Self.digest)
        self = .board(kept)
    }

    /// The hex SHA-256 of a request's canonical line; a digest is kept as it is.
    static func digest(_ request: String) -> String {
        request.utf8.count == 64 && request.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            ? request : SHA256.hex(request)
    }

    /// The commit time of the change that used the key.
    var committedAt: Double {
        switch self {
        case .metrics(let metrics): metrics.first?.updatedAt ?? 0
        case .board(let board): board.updatedAt
        }
    }

    /// The answer with its sequence numbers moved up by `base`.
    func restamped(adding base: UInt64) -> RememberedAnswer {
        switch self {
        case .metrics(var metrics):
            for index in metrics.indices { metrics[index].seq += base }
            return .metrics(metrics)
        case .board(var board):
            board.seq += base
            return .board(board)
        }
    }

    package var encoded: [UInt8] {
        var writer = BinaryWriter()
        switch self {
        case .metrics(let metrics):
            writer.reserve(21 + metrics.reduce(0) { $0 + 13 + $1.id.utf8.count + ($1.increment == nil ? 0 : 8) })
            writer.write(Self.metricsTag)
            writer.write(metrics.first?.seq ?? 0)
            writer.write(committedAt)
            writer.write(UInt32(metrics.count))
            for metric in metrics {
                writer.write(metric.id)
                writer.write(UInt8(metric.increment == nil ? 0 : 1))
                writer.write(metric.value)
                if let increment = metric.increment { writer.write(increment) }
            }
        case .board(let board):
            writer.reserve(61 + board.id.utf8.count + board.entries.reduce(0) { $0 + 12 + $1.name.utf8.count })
            writer.write(Self.boardTag)
            board.encode(into: &writer)
            writer.write(raw: Self.digestBytes(board.request ?? ""))
        }
        return writer.bytes
    }

    /// Reads `encoded`; `nil` if it is not well formed.
    init?(encoded bytes: ArraySlice<UInt8>) {
        var reader = BinaryReader(bytes)
        switch reader.read(UInt8.self) {
        case Self.metricsTag:
            guard let first = reader.read(UInt64.self), let time = reader.readDouble(),
                let count = reader.read(UInt32.self)
            else { return nil }
            var metrics: [StoredMetric] = []
            for index in 0..<UInt64(count) {
                guard let id = reader.readString(), let flags = reader.read(UInt8.self), flags <= 1,
                    let value = reader.readDouble()
                else { return nil }
                var increment: Double?
                if flags == 1 {
                    guard let amount = reader.readDouble() else { return nil }
                    increment = amount
                }
                metrics.append(
                    StoredMetric(id: id, value: value, seq: first + index, updatedAt: time, increment: increment))
            }
            self = .metrics(metrics)
        case Self.boardTag:
            guard var board = StoredLeaderboard(reader: &reader), let digest = reader.readRaw(32) else { return nil }
            board.request = digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            self = .board(board)
        default:
            return nil
        }
        guard reader.isAtEnd else { return nil }
    }

    /// A value Redis keeps for a key: `SEQ:` and the answer with relative numbers (or, written before this encoding,
    /// a journal record), numbered from `SEQ`; `nil` if it is neither.
    package init?(numbered value: ArraySlice<UInt8>) {
        guard let colon = value.firstIndex(of: UInt8(ascii: ":")),
            let seq = UInt64(String(decoding: value[..<colon], as: UTF8.self))
        else { return nil }
        let rest = value[(colon + 1)...]
        if let answer = RememberedAnswer(encoded: rest) {
            self = answer.restamped(adding: seq)
        } else if let record = StoreChange(payload: rest) {
            switch record.restamped(adding: seq) {
            case .metrics(let metrics): self.init(metrics)
            case .leaderboard(let board): self.init(board)
            default: return nil
            }
        } else {
            return nil
        }
    }

    /// The 32 bytes of a hex digest (zeros where it is not one, which no request's digest is).
    private static func digestBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return [UInt8](repeating: 0, count: 32) }
        func nibble(_ digit: UInt8) -> UInt8 { (digit >= 0x61 ? digit &- 0x61 &+ 10 : digit &- 0x30) & 0x0F }
        return (0..<32).map { nibble(digits[2 * $0]) << 4 | nibble(digits[2 * $0 + 1]) }
    }
}
