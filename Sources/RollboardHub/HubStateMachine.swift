package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// The live side of one dashboard without I/O or clocks: screens connect, producers' changes arrive, screens send
/// messages, their connections fill up and drain, and time passes (`tick(now:)`); each input returns the ``HubAction``s to carry out, in order,
/// ending with `.wake(at:)` when the hub wants a tick.
///
/// Screens at the same frame rate and motion form a ``FrameStream``: each tick, the tiles that moved are encoded once
/// as patches, and every screen in step is sent the same frame. Calm screens (reduced motion) are on streams of their
/// own that send only final states: a change jumps to where its animation ends. A screen that joins, resumes, changes rate or skipped a
/// frame is first sent a `state` with every tile (then primed for the stream's compression); a screen whose viewer
/// moved their own carousel gets frames of its own. What a screen sees is exactly what it would see alone.
package struct HubStateMachine {
    // The stream state (`sessions`, `streams`, `tileIDs`, `lastChangeAt`, `changeCount`, `storeSeq`, `replay`) is
    // internal rather than private only so that HubStateMachine+Streams.swift can drive it; nothing else touches it.
    /// The `dashboard` object of the hello message, already encoded.
    private(set) var helloDashboard: String
    private(set) var configuration: DashboardHub.Configuration
    /// One live tile per dashboard tile, in layout order: the animation every screen in a stream shows (set only here
    /// and in HubStateMachine+Windows.swift).
    var tiles: [any LiveTile]
    /// The indices of the tiles that change with time by themselves (see HubStateMachine+Windows.swift).
    var windowedTiles: [Int]
    var tileIDs: [String]
    var tilesByMetric: [String: [Int]]
    /// When each tile's value last changed, in seconds since 1970 (wall clock).
    private var updatedAt: [String: Double]
    var sessions: [Int: ClientSession] = [:]
    var streams: [StreamKey: FrameStream] = [:]
    /// When the tiles last took a change: no frame shows an earlier moment.
    var lastChangeAt = -Double.infinity
    /// How many changes the tiles took (a producer's to a metric they show, a window that moved): a calm stream that
    /// has shown fewer owes its screens a frame.
    var changeCount = 0
    /// The store's epoch (empty until a log that opens late opened), and the sequence number of the last stored
    /// change the tiles took.
    private var epoch: String
    var storeSeq: UInt64
    /// The latest stored changes, for screens that come back (`connect(…since:…)`).
    var replay: ChangeReplay
    /// The announcement every screen shows until `until`, screens that connect meanwhile included.
    private var announcement: (text: String, until: Double)?
    /// Whether the shared change log's changes reach this node (`false` while Redis is out of reach).
    private var isFeedLive = true
    /// Why each metric's source fails, for the metrics whose source is down (see `HubStateMachine+Sources.swift`).
    var sourceProblems: [String: String] = [:]

    /// - Parameters:
    ///   - tiles: one live tile per dashboard tile, at rest at the current values, in layout order.
    ///   - tilesByMetric: which tiles (by id) show each metric.
    ///   - updatedAt: when each tile's current value was committed, in seconds since 1970.
    ///   - epoch: the store's epoch; `storeSeq` the sequence number of the last change the tiles show.
    init(
        helloDashboard: String, tiles: [any LiveTile], tilesByMetric: [String: [String]], updatedAt: [String: Double],
        configuration: DashboardHub.Configuration, epoch: String = "", storeSeq: UInt64 = 0
    ) {
        self.epoch = epoch
        self.storeSeq = storeSeq
        self.replay = ChangeReplay(from: storeSeq)
        self.helloDashboard = helloDashboard
        self.tiles = tiles
        self.windowedTiles = Self.windowedIndices(tiles)
        self.tileIDs = tiles.map(\.tileID)
        self.tilesByMetric = tilesByMetric.mapValues { ids in
            tiles.indices.filter { ids.contains(tiles[$0].tileID) }
        }
        self.updatedAt = updatedAt
        self.configuration = configuration
    }

    /// The number of connected screens.
    var sessionCount: Int { sessions.count }

    // MARK: Inputs

    /// Screen `id` connected asking for `fps` (the default when `nil`) and, with `calm`, for final states only: it is
    /// sent the hello with its stream's states and joins the stream. A screen that comes back with the `since` it was
    /// last shown is shown exactly what it missed: its tiles as they stood, then the missed changes under each tile's
    /// queue policy (its own frames until they rest where the stream is), or the stream's states when the store's epoch
    /// changed, the replay does not reach back that far or the screen is calm (final values are what it missed); the
    /// hello's `resume` says which, and its `changes` where the screen stands. `changesThrough`: the store's position
    /// up to which the hub was handed every change it shows (the changes after the last one it showed were to other
    /// metrics), so the store's position moves there.
    mutating func connect(
        _ id: Int, fps: Int?, calm: Bool = false, since: ResumePoint? = nil, changesThrough: UInt64? = nil, now: Double
    ) -> [HubAction] {
        if let changesThrough { storeSeq = max(storeSeq, changesThrough) }
        let advanced = advanceWindows(now: now)  // a window that reset while no timer ran is shown as it is now
        let rate = configuration.clampedFPS(fps ?? configuration.defaultFPS)
        var session = ClientSession(id: id, fps: rate, isCalm: calm || configuration.calm)
        var resume: String?
        if let since {
            if since.epoch != epoch || since.seq > storeSeq {
                resume = "full"
            } else if since.seq == storeSeq {
                resume = "none"
            } else if !session.isCalm, let missed = replay.changes(after: since.seq) {
                resume = "replay"
                for entry in missed {
                    if session.ownTiles[entry.tileIndex] == nil {
                        session.ownTiles[entry.tileIndex] = ClientSession.OwnTile(tile: entry.before, sent: nil, isReplay: true)
                    }
                    try? session.ownTiles[entry.tileIndex]!.tile.apply(entry.change, at: now)
                }
                // A window due meanwhile (a reset, an age-out, a compared number) is brought to now, as the hub's is.
                for index in session.ownTiles.keys.sorted() {
                    session.ownTiles[index]!.tile = Self.advanced(session.ownTiles[index]!.tile, now: now)
                }
            } else {
                resume = "full"
            }
        }
        let stream = join(id, stream: session.stream, now: now)
        var states: [(id: String, state: TileState?)] = []
        for index in tiles.indices {
            var state = stream.states[index]
            if let own = session.ownTiles[index] {
                state = own.tile.state(at: now)
                session.ownTiles[index]!.sent = state
            }
            if let time = updatedAt[tileIDs[index]] { state?.members.append(.init("updatedAt", jsonNumber(time, places: 3))) }
            states.append((tileIDs[index], state))
        }
        sessions[id] = session
        if session.hasOwnTiles { lastChangeAt = max(lastChangeAt, now) }
        let fpsRange = configuration.clampedFPS(ServerSettings.Limits.fpsRange.lowerBound)
            ... configuration.clampedFPS(ServerSettings.Limits.fpsRange.upperBound)
        let hello = HelloMessage(
            fps: rate, fpsRange: fpsRange, isCalm: session.isCalm, frameNumber: stream.frameNumber, epoch: epoch,
            changesSeq: resume == "replay" ? since!.seq : storeSeq, resume: resume, isFeedLive: isFeedLive,
            dashboard: helloDashboard, tiles: states, page: configuration.page)
        var actions: [HubAction] = advanced + [.send(text: ScreenMessageEncoder.hello(hello), to: id)]
        if let announcement, announcement.until > now {
            let text = ScreenMessageEncoder.announcement(announcement.text, seconds: announcement.until - now)
            actions.append(.send(text: text, to: id))
        }
        // The hello says it already (a page reads it there, so it never shows "live" between the two messages); the
        // status follows for pages from before the hello carried it.
        if !isFeedLive { actions.append(.send(text: ScreenMessageEncoder.feed(live: false), to: id)) }
        if let sources = sourcesText(onlyIfStale: true) { actions.append(.send(text: sources, to: id)) }
        return actions + [.prime(stream: session.stream, to: [id])] + wake(now: now)
    }

    /// Screen `id` went away.
    mutating func disconnect(_ id: Int, now: Double) -> [HubAction] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        return leave(id, stream: session.stream) + wake(now: now)
    }

    /// A producer's change, made at `now`, to every tile showing `metricID`; `committedAt` (seconds since 1970) is
    /// when it was stored, and `seq` its number in the store (kept for screens that come back; `nil` for events that
    /// are not stored, such as carousel commands). A change no tile shows or takes moves nothing (the directory gives a
    /// hub only the changes it shows): the tiles still show the store up to its `seq`.
    mutating func apply(
        _ change: TileChange, toMetric metricID: String, committedAt: Double?, seq: UInt64? = nil, now: Double
    ) -> [HubAction] {
        if let seq { storeSeq = max(storeSeq, seq) }
        guard let indices = tilesByMetric[metricID], !indices.isEmpty else { return [] }
        var actions: [HubAction] = []
        var taken = false
        for index in indices {
            if let seq { replay.record(seq: seq, tileIndex: index, before: tiles[index], change: change) }
            do {
                try tiles[index].apply(change, at: now)
            } catch {
                actions.append(.changeRefused(tile: tileIDs[index], reason: "\(error)"))
                continue
            }
            taken = true
            if let committedAt { updatedAt[tileIDs[index]] = committedAt }
            let owners = sessions.compactMap { $0.value.ownTiles[index] == nil ? nil : $0.key }
            for id in owners {
                try? sessions[id]!.ownTiles[index]!.tile.apply(change, at: now)
            }
        }
        if taken {
            lastChangeAt = max(lastChangeAt, now)
            changeCount += 1
        }
        return actions + wake(now: now)
    }

    /// A parsed message from screen `id` (or its parse failure, which closes the screen with 1007).
    mutating func receive(_ message: Result<ClientMessage, ClientMessage.ParseError>, from id: Int, now: Double)
        -> [HubAction]
    {
        guard var session = sessions[id] else { return [] }
        var actions: [HubAction] = []
        switch message {
        case .success(.fps(let value)):
            let rate = configuration.clampedFPS(value)
            if rate != session.fps {
                actions += leave(id, stream: session.stream)
                session.setFPS(rate)
                sessions[id] = session
                join(id, stream: session.stream, now: now)
            }
        case .success(.pause):
            sessions[id]?.isPaused = true
        case .success(.resume):
            if session.isPaused {
                sessions[id]?.isPaused = false
                sessions[id]?.needsState = true
            }
        case .success(.carousel(let tileID, let action, let page)):
            lastChangeAt = max(lastChangeAt, now)
            for index in tiles.indices where tileIDs[index] == tileID {
                if session.ownTiles[index] == nil {
                    session.ownTiles[index] = ClientSession.OwnTile(
                        tile: tiles[index], sent: streams[session.stream]?.states[index])
                }
                session.ownTiles[index]!.tile.apply(viewerAction: action, page: page, at: now)
            }
            sessions[id] = session
        case .success(.ignored), .success(.report):
            break  // a report is kept by the screen registry (DashboardSocket), which knows the screen across sessions
        case .failure(let error):
            sessions.removeValue(forKey: id)
            return leave(id, stream: session.stream) + [.close(session: id, code: .invalidPayload, reason: error.detail)]
                + wake(now: now)
        }
        return actions + wake(now: now)
    }

    /// The dashboard's configuration changed (a reload): every screen is sent a fresh `hello` with the new layout and
    /// tiles, at the rate and motion it had; what a viewer moved on one screen alone starts afresh.
    mutating func reconfigure(
        helloDashboard: String, tiles: [any LiveTile], tilesByMetric: [String: [String]], updatedAt: [String: Double],
        configuration: DashboardHub.Configuration, now: Double
    ) -> [HubAction] {
        self.helloDashboard = helloDashboard
        self.tiles = tiles
        self.windowedTiles = Self.windowedIndices(tiles)
        self.tileIDs = tiles.map(\.tileID)
        self.tilesByMetric = tilesByMetric.mapValues { ids in tiles.indices.filter { ids.contains(tiles[$0].tileID) } }
        self.updatedAt = updatedAt
        self.configuration = configuration
        announcement = nil
        replay = ChangeReplay(from: storeSeq)  // tile indices changed: nothing before now can be replayed
        let screens = sessions.values.sorted { $0.id < $1.id }
        var actions = streams.keys.sorted().map(HubAction.endStream)
        sessions.removeAll()
        streams.removeAll()
        for screen in screens {
            actions += connect(screen.id, fps: screen.fps, calm: screen.isCalm, now: now).filter {
                if case .wake = $0 { false } else { true }
            }
            if screen.isPaused { sessions[screen.id]?.isPaused = true }
        }
        return actions + wake(now: now)
    }

    // MARK: Remote control

    /// Every screen reloads its page.
    func reload() -> [HubAction] {
        sendToEveryScreen(ScreenMessageEncoder.reload)
    }

    /// Every screen shows `text` full-screen for `seconds` (and so do screens that connect before then); `0` takes a
    /// running announcement down.
    mutating func announce(_ text: String, seconds: Double, now: Double) -> [HubAction] {
        announcement = seconds > 0 ? (text, now + seconds) : nil
        return sendToEveryScreen(ScreenMessageEncoder.announcement(text, seconds: seconds))
    }

    /// Whether changes reach this node: every screen is told when that turns (`status` `stale` or `live`), and a
    /// screen that connects while they do not is told after its `hello`.
    /// `epoch`, when given, is the store's epoch from now on (a log that opened after the hub was built).
    mutating func setFeed(live: Bool, epoch: String? = nil) -> [HubAction] {
        if let epoch, !epoch.isEmpty, epoch != self.epoch {
            // The log opened after the hub was built (or its history is another): the changes before now cannot be
            // replayed, so a screen that comes back from before is shown the tiles as they stand.
            self.epoch = epoch
            replay = ChangeReplay(from: storeSeq)
        }
        guard live != isFeedLive else { return [] }
        isFeedLive = live
        return sendToEveryScreen(ScreenMessageEncoder.feed(live: live))
    }

    /// Screen `id` shows `name` large for `seconds`, so an operator can tell which TV it is.
    func identify(_ id: Int, name: String, seconds: Double) -> [HubAction] {
        send(ScreenMessageEncoder.identify(name: name, seconds: seconds), to: id)
    }

    /// `text` to screen `id` as a message of its own, then primed again for its stream.
    func send(_ text: String, to id: Int) -> [HubAction] {
        guard let session = sessions[id] else { return [] }
        return [.send(text: text, to: id), .prime(stream: session.stream, to: [id])]
    }

    /// Changes queued in the dashboard's tiles and not yet finished at `now`.
    func queueLength(at now: Double) -> Int {
        tiles.reduce(0) { $0 + $1.pendingChanges(at: now) }
    }

    /// Every connected screen's frame rate, pause and skipped frames, by session id.
    var screenStatuses: [Int: ScreenStatus] {
        sessions.mapValues { ScreenStatus(fps: $0.fps, isPaused: $0.isPaused, framesSkipped: $0.framesSkipped) }
    }

    /// `text` to every screen as a message of its own, each then primed again for its stream (a message of its own
    /// moves the screen's compression window away from the stream's).
    func sendToEveryScreen(_ text: String) -> [HubAction] {
        var actions: [HubAction] = []
        var byRate: [StreamKey: [Int]] = [:]
        for id in sessions.keys.sorted() {
            actions.append(.send(text: text, to: id))
            byRate[sessions[id]!.stream, default: []].append(id)
        }
        return actions + byRate.keys.sorted().map { HubAction.prime(stream: $0, to: byRate[$0]!) }
    }

    /// Closes every screen with 1001 (the server is going away), or with `code` (a dashboard a reload removed).
    mutating func closeAll(
        code: WebSocketCloseCode = .goingAway, reason: String = "server shutting down"
    ) -> [HubAction] {
        let actions = sessions.keys.sorted().map { HubAction.close(session: $0, code: code, reason: reason) }
        sessions.removeAll()
        let ended = streams.keys.sorted().map(HubAction.endStream)
        streams.removeAll()
        return actions + ended
    }

    /// Time passed: every stream that is due sends its frame to the screens in step, a `state` to the screens that
    /// need one, and frames of their own to screens with their own tiles; screens that are full (``screenIsFull(_:)``)
    /// skip (and are closed after the slow-client timeout).
    mutating func tick(now: Double) -> [HubAction] {
        var actions = advanceWindows(now: now)
        for rate in streams.keys.sorted() where streams[rate]!.isDue(at: now) && streamWantsFrame(rate, now: now) {
            actions += tickStream(rate, now: now)
        }
        return actions + wake(now: now)
    }
}

@available(*, unavailable)
extension HubStateMachine: Sendable {}
