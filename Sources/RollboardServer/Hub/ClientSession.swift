import RollboardNet

/// One connected screen: its own animation per tile, its frame rate, and what it has been sent.
///
/// Confined to its hub's serial queue.
final class ClientSession {
    /// What one clock tick did for this session.
    enum TickOutcome: Equatable {
        /// Not due yet, paused, or nothing changed.
        case idle
        /// A frame went out with this many bytes.
        case sent(bytes: Int)
        /// The client was over its watermark; the frame was skipped.
        case skipped
        /// The client stayed over its watermark too long and was closed.
        case closedAsTooSlow
    }

    let id: Int
    let sink: any FrameSink
    private(set) var tiles: [any LiveTile]
    /// Whether tile `index` moved away from the hub's reference (a viewer's own carousel action); the others are
    /// identical to the reference, so their states can be shared.
    private var diverged: [Bool]
    private var lastSent: [String]
    private(set) var fps: Int
    private(set) var isPaused = false
    private(set) var sequence = 0
    private var nextFrameAt: Double
    /// The time of the states in `lastSent`: anything that moves after it owes this client a frame.
    private var statesTime: Double
    private var blockedSince: Double?
    private var isClosed = false
    private let slowClientTimeout: Double

    init(id: Int, sink: any FrameSink, tiles: [any LiveTile], fps: Int, slowClientTimeout: Double, now: Double) {
        self.id = id
        self.sink = sink
        self.tiles = tiles
        self.diverged = Array(repeating: false, count: tiles.count)
        self.fps = fps
        self.slowClientTimeout = slowClientTimeout
        self.lastSent = tiles.map { $0.encodedState(at: now) }
        self.nextFrameAt = now
        self.statesTime = now
    }

    /// The `tiles` object of the hello message: every tile's state as last sent, with `updatedAt` (seconds since
    /// 1970) for the tiles whose value time is known, so a screen can tell a stale value from a fresh one.
    func helloTiles(updatedAt: [String: Double] = [:]) -> String {
        let entries = zip(tiles, lastSent).map { tile, state in
            guard let time = updatedAt[tile.tileID], state.hasSuffix("}") else {
                return "\(JSONText.quoted(tile.tileID)):\(state)"
            }
            return "\(JSONText.quoted(tile.tileID)):\(state.dropLast()),\"updatedAt\":\(jsonNumber(time, places: 3))}"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }

    /// Applies a producer change to the tile `tileID`.
    func apply(_ change: TileChange, toTile tileID: String, at time: Double) throws {
        for index in tiles.indices where tiles[index].tileID == tileID {
            try tiles[index].apply(change, at: time)
        }
    }

    /// Applies this viewer's own carousel action.
    func apply(viewerAction: CarouselViewerAction, page: Int?, toTile tileID: String, at time: Double) {
        for index in tiles.indices where tiles[index].tileID == tileID {
            tiles[index].apply(viewerAction: viewerAction, page: page, at: time)
            diverged[index] = true
        }
    }

    /// Changes the frame rate (clamped to 1…60).
    func setFPS(_ value: Int, now: Double) {
        fps = min(max(value, 1), 60)
        nextFrameAt = min(nextFrameAt, now + 1 / Double(fps))
    }

    /// Stops or restarts frames; animations keep their timing, so a resumed screen is in step at once.
    func setPaused(_ paused: Bool, now: Double) {
        isPaused = paused
        if !paused { nextFrameAt = now }
    }

    /// The earliest time this session wants a tick.
    func nextWakeup(after now: Double) -> Double? {
        if isClosed || isPaused { return nil }
        if blockedSince != nil { return max(nextFrameAt, now) }
        let motion = tiles.compactMap { $0.nextMotion(after: statesTime) }.min()
        guard let motion else { return nil }
        return max(motion, nextFrameAt)
    }

    /// Sends a frame with the tiles that changed since the last frame this client got, if one is due.
    ///
    /// - Parameter shared: the hub's reference states at `now`, used for every tile that has not diverged.
    func tick(at now: Double, shared: SharedTileStates? = nil) -> TickOutcome {
        guard !isClosed, !isPaused, now + 0.25 / Double(fps) >= nextFrameAt else { return .idle }
        nextFrameAt = max(nextFrameAt + 1 / Double(fps), now + 0.5 / Double(fps))
        guard sink.isWritable else {
            let since = blockedSince ?? now
            blockedSince = since
            if now - since >= slowClientTimeout {
                isClosed = true
                sink.close(code: .policyViolation, reason: "client too slow")
                return .closedAsTooSlow
            }
            return .skipped
        }
        blockedSince = nil
        let previous = statesTime
        statesTime = now
        var changed = ""
        for index in tiles.indices {
            guard let motion = tiles[index].nextMotion(after: previous), motion <= now else { continue }
            let state =
                if let shared, !diverged[index], shared.time == now {
                    shared.state(index)
                } else {
                    tiles[index].encodedState(at: now)
                }
            if state != lastSent[index] {
                lastSent[index] = state
                if !changed.isEmpty { changed += "," }
                changed += JSONText.quoted(tiles[index].tileID) + ":" + state
            }
        }
        guard !changed.isEmpty else { return .idle }
        sequence += 1
        let text = "{\"type\":\"frame\",\"seq\":\(sequence),\"tiles\":{\(changed)}}"
        sink.send(text: text)
        return .sent(bytes: text.utf8.count)
    }

    /// Marks the session closed; it sends nothing more.
    func markClosed() {
        isClosed = true
    }
}

@available(*, unavailable)
extension ClientSession: Sendable {}
