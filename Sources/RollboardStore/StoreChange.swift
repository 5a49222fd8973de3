package import RollboardConfig

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
    /// A scheduled source's health turned (tag 13, from the range kept for sources).
    case sourceHealth(StoredSourceHealth)
    /// A leaderboard's whole board (an increment already resolved into it).
    case leaderboard(StoredLeaderboard)

    /// Every kind, listed once: its kind byte in the journal, its part type and its case.
    /// A metric batch with an increment or an idempotency key is written as kind 9 (listed before kind 1, which takes
    /// every other batch); a board with an idempotency key as kind 14 (before kind 11, which takes every other board);
    /// a screen's assignment as kind 15 (before kind 7, which takes every other screen command: a node of an earlier
    /// version skips kind 15 as a kind it does not know, docs/cluster.md "Rolling upgrade"); a reload or identify of the
    /// screens of a name as kind 16, the same way.
    static let kinds: [StoreChangeKind] = [
        StoreChangeKind(
            batchTag: 9, ExtendedMetric.self, make: { .metrics($0.map(\.base)) },
            take: { change in
                guard case .metrics(let parts) = change, parts.contains(where: \.isExtended) else { return nil }
                return parts.map(ExtendedMetric.init)
            }),
        StoreChangeKind(
            batchTag: 1, StoredMetric.self, make: { .metrics($0) },
            take: { if case .metrics(let parts) = $0 { parts } else { nil } }),
        StoreChangeKind(tag: 2, StoredWheel.self, make: { .wheel($0) }),
        StoreChangeKind(tag: 3, StoredText.self, make: { .text($0) }),
        StoreChangeKind(tag: 4, StoredSlides.self, make: { .slides($0) }),
        StoreChangeKind(tag: 5, StoredCarouselCommand.self, make: { .carousel($0) }),
        StoreChangeKind(tag: 6, StoredPlaylistCommand.self, make: { .playlist($0) }),
        StoreChangeKind(
            tag: 15, StoredScreenCommand.self, make: { .screens($0) },
            take: { change in
                guard case .screens(let command) = change, command.action.isAssignment else { return nil }
                return command
            }),
        StoreChangeKind(
            tag: 16, StoredScreenCommand.self, make: { .screens($0) },
            take: { change in
                guard case .screens(let command) = change, command.action.isToNamedScreens else { return nil }
                return command
            }),
        StoreChangeKind(tag: 7, StoredScreenCommand.self, make: { .screens($0) }),
        StoreChangeKind(tag: 8, StoredViewerKey.self, make: { .viewerKey($0) }),
        StoreChangeKind(tag: 13, StoredSourceHealth.self, make: { .sourceHealth($0) }),
        StoreChangeKind(
            tag: 14, KeyedLeaderboard.self, make: { .leaderboard($0.base) },
            take: { change in
                guard case .leaderboard(let board) = change, board.requestKey != nil else { return nil }
                return KeyedLeaderboard(board)
            }),
        StoreChangeKind(tag: 11, StoredLeaderboard.self, make: { .leaderboard($0) }),
    ]

    /// The one part of any change but a metric batch.
    var singlePart: (any StoredChangePart)? {
        switch self {
        case .metrics: nil
        case .wheel(let part): part
        case .text(let part): part
        case .slides(let part): part
        case .carousel(let part): part
        case .playlist(let part): part
        case .screens(let part): part
        case .viewerKey(let part): part
        case .sourceHealth(let part): part
        case .leaderboard(let part): part
        }
    }

    /// This change's kind and its parts, in sequence order.
    var kindAndParts: (kind: StoreChangeKind, parts: [any StoredChangePart]) {
        for kind in Self.kinds {
            if let parts = kind.parts(self) { return (kind, parts) }
        }
        preconditionFailure("StoreChange.kinds lacks a case")
    }

    /// The highest sequence number in the change.
    public var lastSeq: UInt64 {
        kindAndParts.parts.last?.seq ?? 0
    }

    /// When the change was committed (seconds since 1970).
    package var updatedAt: Double {
        kindAndParts.parts.first?.updatedAt ?? 0
    }

    /// How many sequence numbers the change takes: one per metric of a batch, else one.
    package var sequenceCount: Int {
        kindAndParts.parts.count
    }

    /// This change with `base` added to its sequence numbers (a command numbers its parts from 0; a Redis stream
    /// entry holds them relative to the first number the append script drew).
    package func restamped(adding base: UInt64) -> StoreChange {
        updatingParts { $0.seq += base }
    }

    /// This change with every part's commit time set to `time` (seconds since 1970).
    package func stamped(at time: Double) -> StoreChange {
        updatingParts { $0.updatedAt = time }
    }

    /// This change as a value that stands rather than a move: a metric's value is shown at once, not animated to
    /// (how a node that opened late tells its screens the values it loaded).
    package var atRest: StoreChange {
        guard case .metrics(let metrics) = self else { return self }
        return .metrics(
            metrics.map { metric in
                var metric = metric
                metric.animated = false
                return metric
            })
    }

    /// This change with `body` applied to each part's sequence number and commit time.
    private func updatingParts(_ body: (inout any StoredChangePart) -> Void) -> StoreChange {
        let (kind, parts) = kindAndParts
        let updated = parts.map { part in
            var part = part
            body(&part)
            return part
        }
        guard let change = kind.change(updated) else { preconditionFailure("a kind's parts make its change") }
        return change
    }
}
