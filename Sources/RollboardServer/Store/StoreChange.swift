/// One committed change: what the change log appends, the journal and the Redis stream hold (see
/// `StoreChange+Journal.swift` for the one codec), and subscribers receive, in sequence order, once it is durable.
///
/// Adding a kind of change touches this enum, its codec, and the code that applies it (`StoreModel.apply`, and the
/// subscriber that acts on it); the change log's backends only append, deliver in order and catch up.
public enum StoreChange: Sendable, Equatable {
    /// One batch: all of its metrics, committed together.
    case metrics([StoredMetric])
    case wheel(StoredWheel)
    /// A text tile's new message.
    case text(StoredText)
    /// A carousel's new slides.
    case slides(StoredSlides)
    /// A producer's command to a carousel.
    case carousel(StoredCarouselCommand)
    /// An operator's command to a playlist.
    case playlist(StoredPlaylistCommand)
    /// An operator's command to the screens of a dashboard or playlist.
    case screens(StoredScreenCommand)
    /// A viewer key created or revoked.
    case viewerKey(StoredViewerKey)

    /// The highest sequence number in the change.
    public var lastSeq: UInt64 {
        switch self {
        case .metrics(let metrics): metrics.last?.seq ?? 0
        case .wheel(let wheel): wheel.seq
        case .text(let text): text.seq
        case .slides(let slides): slides.seq
        case .carousel(let command): command.seq
        case .playlist(let command): command.seq
        case .screens(let command): command.seq
        case .viewerKey(let change): change.seq
        }
    }

    /// When the change was committed (seconds since 1970).
    var updatedAt: Double {
        switch self {
        case .metrics(let metrics): metrics.first?.updatedAt ?? 0
        case .wheel(let wheel): wheel.updatedAt
        case .text(let text): text.updatedAt
        case .slides(let slides): slides.updatedAt
        case .carousel(let command): command.updatedAt
        case .playlist(let command): command.updatedAt
        case .screens(let command): command.updatedAt
        case .viewerKey(let change): change.updatedAt
        }
    }

    /// How many sequence numbers the change takes: one per metric of a batch, else one.
    var sequenceCount: Int {
        if case .metrics(let metrics) = self { metrics.count } else { 1 }
    }

    /// This change with `base` added to its sequence numbers (a command numbers its parts from 0; a Redis stream
    /// entry holds them relative to the first number the append script drew).
    func restamped(adding base: UInt64) -> StoreChange {
        var change = self
        change.update { seq, _ in seq += base }
        return change
    }

    /// This change with every part's commit time set to `time` (seconds since 1970).
    func stamped(at time: Double) -> StoreChange {
        var change = self
        change.update { _, updatedAt in updatedAt = time }
        return change
    }

    /// Calls `body` with each part's sequence number and commit time, to change them.
    private mutating func update(_ body: (inout UInt64, inout Double) -> Void) {
        switch self {
        case .metrics(var metrics):
            for index in metrics.indices {
                var metric = metrics[index]
                body(&metric.seq, &metric.updatedAt)
                metrics[index] = metric
            }
            self = .metrics(metrics)
        case .wheel(var wheel):
            body(&wheel.seq, &wheel.updatedAt)
            self = .wheel(wheel)
        case .text(var text):
            body(&text.seq, &text.updatedAt)
            self = .text(text)
        case .slides(var slides):
            body(&slides.seq, &slides.updatedAt)
            self = .slides(slides)
        case .carousel(var command):
            body(&command.seq, &command.updatedAt)
            self = .carousel(command)
        case .playlist(var command):
            body(&command.seq, &command.updatedAt)
            self = .playlist(command)
        case .screens(var command):
            body(&command.seq, &command.updatedAt)
            self = .screens(command)
        case .viewerKey(var change):
            body(&change.seq, &change.updatedAt)
            self = .viewerKey(change)
        }
    }
}
