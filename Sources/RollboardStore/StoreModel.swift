package import RollboardCore
package import RollboardConfig

/// The store's in-memory state: what the journal and snapshot say, applied in sequence order.
package struct StoreModel: Equatable, Sendable {
    struct Metric: Equatable {
        var current: StoredMetric
        /// Oldest first, the current value last; at most `historyLimit` entries.
        var history: [MetricHistoryEntry]
    }

    var metrics: [String: Metric] = [:]
    var wheels: [String: StoredWheel] = [:]
    var texts: [String: StoredText] = [:]
    var slides: [String: StoredSlides] = [:]
    /// Per playlist, the operator's commands its state follows from, oldest first (see `keeping(_:after:)`).
    package var playlists: [String: [StoredPlaylistCommand]] = [:]
    /// Per viewer key id, its latest change: its creation, or its revocation (kept, so an older creation read later
    /// cannot bring it back).
    var viewerKeys: [String: StoredViewerKey] = [:]
    /// Per leaderboard, its latest whole board.
    var leaderboards: [String: StoredLeaderboard] = [:]
    /// The highest sequence number applied; 0 for an empty store.
    package var lastSeq: UInt64 = 0
    let historyLimit: Int
    /// The idempotency keys of the last day's metric changes (kept by the journal, which answers retries itself;
    /// Redis keeps them for a cluster, with their expiry, and a node's model leaves them out).
    var idempotency: IdempotencyMemory
    let remembersIdempotencyKeys: Bool
    /// Per metric, its series (raw changes and rollups), derived from the changes applied.
    var series: [String: MetricSeries] = [:]
    let seriesLimits: SeriesLimits

    package init(
        historyLimit: Int, seriesLimits: SeriesLimits = SeriesLimits(), remembersIdempotencyKeys: Bool = true,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes
    ) {
        self.historyLimit = historyLimit
        idempotency = IdempotencyMemory(budget: idempotencyBudget)
        self.seriesLimits = seriesLimits
        self.remembersIdempotencyKeys = remembersIdempotencyKeys
    }

    /// Applies a record unless its sequence numbers are already applied (a journal record older than the snapshot).
    package mutating func apply(_ record: StoreChange) {
        guard record.lastSeq > lastSeq else { return }
        switch record {
        case .metrics(let updates):
            for update in updates {
                var history = metrics[update.id]?.history ?? []
                history.append(update.historyEntry)
                if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
                metrics[update.id] = Metric(current: update, history: history)
                series[update.id, default: MetricSeries()].add(update, limits: seriesLimits)
            }
            if remembersIdempotencyKeys { idempotency.remember(updates) }
        case .wheel(let wheel):
            wheels[wheel.id] = wheel
        case .text(let text):
            texts[text.id] = text
        case .slides(let stored):
            slides[stored.id] = stored
        case .playlist(let command):
            playlists[command.id] = Self.keeping(command, after: playlists[command.id] ?? [])
        case .viewerKey(let change):
            viewerKeys[change.keyID] = change
        case .leaderboard(let board):
            leaderboards[board.id] = board.withoutRequest
            if remembersIdempotencyKeys { idempotency.remember(board) }
        case .carousel, .screens, .sourceHealth:
            break  // events: they move screens, they leave no state
        }
        lastSeq = record.lastSeq
    }

    /// The most playlist commands kept per playlist; older ones are forgotten (a long run of holds and resumes with no
    /// `show` between them).
    static let playlistCommandLimit = 32

    /// The commands a playlist's state follows from once `command` is added to `commands`: a `show` while the rotation
    /// runs sets it whatever came before, so it starts the list afresh; any other command is added, and the newest
    /// `playlistCommandLimit` are kept.
    static func keeping(_ command: StoredPlaylistCommand, after commands: [StoredPlaylistCommand])
        -> [StoredPlaylistCommand]
    {
        if case .show = command.action, !isHeld(after: commands) { return [command] }
        return Array((commands + [command]).suffix(playlistCommandLimit))
    }

    /// Whether a playlist is held once `commands` are applied: the last hold or resume says so.
    private static func isHeld(after commands: [StoredPlaylistCommand]) -> Bool {
        for command in commands.reversed() {
            switch command.action {
            case .hold: return true
            case .resume: return false
            case .show: continue
            }
        }
        return false
    }

    /// Takes a latest value (from Redis's latest-values hash) for an id whose changes were trimmed from the stream:
    /// it becomes the current value, and the last of the history, unless the model already has it or a newer one.
    /// `lastSeq` is left as it is.
    package mutating func adopt(_ record: StoreChange) {
        switch record {
        case .metrics(let updates):
            for update in updates where (metrics[update.id]?.current.seq ?? 0) < update.seq {
                var history = metrics[update.id]?.history ?? []
                history.append(update.historyEntry)
                if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
                metrics[update.id] = Metric(current: update, history: history)
            }
        case .wheel(let wheel) where (wheels[wheel.id]?.seq ?? 0) < wheel.seq:
            wheels[wheel.id] = wheel
        case .text(let text) where (texts[text.id]?.seq ?? 0) < text.seq:
            texts[text.id] = text
        case .slides(let stored) where (slides[stored.id]?.seq ?? 0) < stored.seq:
            slides[stored.id] = stored
        case .viewerKey(let change) where (viewerKeys[change.keyID]?.seq ?? 0) < change.seq:
            viewerKeys[change.keyID] = change
        case .leaderboard(let board) where (leaderboards[board.id]?.seq ?? 0) < board.seq:
            leaderboards[board.id] = board.withoutRequest
        case .wheel, .text, .slides, .viewerKey, .leaderboard, .carousel, .playlist, .screens, .sourceHealth:
            break
        }
    }

    /// The snapshot file's payload: `lastSeq: UInt64`, `metric count: UInt32`, per metric `id, interval, animated,
    /// history count: UInt32` and per entry `seq, value, updatedAt`; then `wheel count: UInt32` and the wheels; then
    /// `text count: UInt32` and the texts, `slides count: UInt32` and the carousels' slides (as in the journal,
    /// without the kind byte); then `playlist count: UInt32` and per playlist `command count: UInt32` and its commands.
    /// A snapshot that ends after the wheels (written before texts existed) has no texts, slides or playlist
    /// commands; one that ends after the slides has no playlist commands. Then `key count: UInt32` and each viewer
    /// key's latest change (absent in a snapshot written before keys travelled the change log). Then the idempotency
    /// keys remembered, as `IdempotencyMemory.encode(into:)` writes them (absent in a snapshot written before increments),
    /// and `series count: UInt32` and per metric `id` and its series as `MetricSeries.encode(into:)` writes it (absent
    /// in a snapshot written before series). Last, `board count: UInt32` and each leaderboard's board (absent in a
    /// snapshot written before leaderboards).
    var snapshotPayload: [UInt8] {
        var writer = BinaryWriter()
        writer.write(lastSeq)
        writer.write(UInt32(metrics.count))
        for (id, metric) in metrics.sorted(by: { $0.key < $1.key }) {
            writer.write(id)
            writer.write(optional: metric.current.interval)
            writer.write(UInt8(metric.current.animated ? 1 : 0))
            writer.write(UInt32(metric.history.count))
            for entry in metric.history {
                writer.write(entry.seq)
                writer.write(entry.value)
                writer.write(entry.updatedAt)
            }
        }
        writer.write(parts: wheels.sorted { $0.key < $1.key }.map(\.value))
        writer.write(parts: texts.sorted { $0.key < $1.key }.map(\.value))
        writer.write(parts: slides.sorted { $0.key < $1.key }.map(\.value))
        writer.write(UInt32(playlists.count))
        for (_, commands) in playlists.sorted(by: { $0.key < $1.key }) {
            writer.write(parts: commands)
        }
        writer.write(parts: viewerKeys.sorted { $0.key < $1.key }.map(\.value))
        idempotency.encode(into: &writer)
        writer.write(UInt32(series.count))
        for (id, metricSeries) in series.sorted(by: { $0.key < $1.key }) {
            writer.write(id)
            metricSeries.encode(into: &writer)
        }
        writer.write(parts: leaderboards.sorted { $0.key < $1.key }.map(\.value))
        return writer.bytes
    }

    /// Decodes a snapshot payload; `nil` if it is malformed.
    init?(
        snapshotPayload payload: ArraySlice<UInt8>, historyLimit: Int, seriesLimits: SeriesLimits = SeriesLimits(),
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes
    ) {
        self.init(historyLimit: historyLimit, seriesLimits: seriesLimits, idempotencyBudget: idempotencyBudget)
        var reader = BinaryReader(payload)
        guard let lastSeq = reader.read(UInt64.self), let metricCount = reader.read(UInt32.self) else { return nil }
        self.lastSeq = lastSeq
        for _ in 0..<metricCount {
            guard let id = reader.readString(), let interval = reader.readOptionalDouble(),
                let animated = reader.read(UInt8.self), let count = reader.read(UInt32.self), count > 0
            else { return nil }
            var history: [MetricHistoryEntry] = []
            for _ in 0..<count {
                guard let seq = reader.read(UInt64.self), let value = reader.readDouble(),
                    let updatedAt = reader.readDouble()
                else { return nil }
                history.append(MetricHistoryEntry(value: value, seq: seq, updatedAt: updatedAt))
            }
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
            let last = history[history.count - 1]
            let current = StoredMetric(
                id: id, value: last.value, seq: last.seq, updatedAt: last.updatedAt, interval: interval,
                animated: animated != 0
            )
            metrics[id] = Metric(current: current, history: history)
        }
        guard let wheels = reader.readParts(StoredWheel.self) else { return nil }
        for wheel in wheels { self.wheels[wheel.id] = wheel }
        if reader.isAtEnd { return }
        guard let texts = reader.readParts(StoredText.self), let slides = reader.readParts(StoredSlides.self)
        else { return nil }
        for text in texts { self.texts[text.id] = text }
        for stored in slides { self.slides[stored.id] = stored }
        if reader.isAtEnd { return }
        guard let playlistCount = reader.read(UInt32.self) else { return nil }
        for _ in 0..<playlistCount {
            guard let commands = reader.readParts(StoredPlaylistCommand.self, counts: 1...UInt32(Self.playlistCommandLimit)),
                commands.allSatisfy({ $0.id == commands[0].id })
            else { return nil }
            playlists[commands[0].id] = commands
        }
        if reader.isAtEnd { return }
        guard let keys = reader.readParts(StoredViewerKey.self) else { return nil }
        for change in keys { viewerKeys[change.keyID] = change }
        if reader.isAtEnd { return }
        guard let memory = IdempotencyMemory(reader: &reader, budget: idempotencyBudget) else { return nil }
        idempotency = memory
        if reader.isAtEnd { return }
        guard let seriesCount = reader.read(UInt32.self) else { return nil }
        for _ in 0..<seriesCount {
            guard let id = reader.readString(), let metricSeries = MetricSeries(reader: &reader) else { return nil }
            series[id] = metricSeries
        }
        if reader.isAtEnd { return }
        guard let boards = reader.readParts(StoredLeaderboard.self) else { return nil }
        for board in boards { leaderboards[board.id] = board }
        guard reader.isAtEnd else { return nil }
    }
}
