package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// The frame streams of ``HubStateMachine``: screens join and leave streams, a stream wakes when a tile moves or a
/// screen waits, and each tick encodes the moved tiles once as a frame for every screen in step (or a `state`, or a
/// frame of its own, for a screen that needs one).
extension HubStateMachine {
    /// Adds screen `id` to the stream `rate`, starting the stream if it is new.
    @discardableResult
    mutating func join(_ id: Int, stream rate: StreamKey, now: Double) -> FrameStream {
        var stream = streams[rate] ?? FrameStream(fps: rate.fps, isCalm: rate.isCalm, tiles: tiles, now: now)
        if stream.members.isEmpty { stream.changesShown = changeCount }
        stream.members.append(id)
        streams[rate] = stream
        return stream
    }

    mutating func leave(_ id: Int, stream rate: StreamKey) -> [HubAction] {
        streams[rate]?.members.removeAll { $0 == id }
        guard streams[rate]?.members.isEmpty == true else { return [] }
        streams.removeValue(forKey: rate)
        return [.endStream(rate)]
    }

    /// Whether stream `rate` has anything to do: a tile moved, or a screen waits for its state, is backed up or shows
    /// tiles of its own that move.
    func streamWantsFrame(_ rate: StreamKey, now: Double) -> Bool {
        wakeTime(of: rate, now: now) != nil
    }

    func wakeTime(of rate: StreamKey, now: Double) -> Double? {
        guard let stream = streams[rate] else { return nil }
        var wake = stream.nextMotion(of: tiles, after: now)
        if stream.isCalm, stream.changesShown != changeCount {
            wake = max(stream.nextFrameAt, now)  // a calm stream jumps to where a change ends
        }
        for id in stream.members {
            guard let session = sessions[id], !session.isPaused else { continue }
            if session.needsState || session.blockedSince != nil {
                return max(stream.nextFrameAt, now)
            }
            for own in session.ownTiles.values {
                if let motion = stream.isCalm
                    ? own.tile.nextCalmMotion(after: stream.statesTime) : own.tile.nextMotion(after: stream.statesTime)
                {
                    wake = min(wake ?? .infinity, max(motion, stream.nextFrameAt, now))
                }
            }
        }
        return wake
    }

    func wake(now: Double) -> [HubAction] {
        let times = streams.keys.compactMap { wakeTime(of: $0, now: now) } + [windowWake].compactMap { $0 }
        guard let earliest = times.min() else { return [] }
        return [.wake(at: earliest)]
    }

    mutating func tickStream(_ rate: StreamKey, now: Double) -> [HubAction] {
        guard var stream = streams[rate] else { return [] }
        let previous = stream.statesTime
        stream.changesShown = changeCount
        let patches = stream.advance(tiles, to: now, notBefore: lastChangeAt)
        streams[rate] = stream
        let shown = stream.statesTime
        var changes: UInt64?
        if !patches.isEmpty, stream.seqShown != storeSeq {
            changes = storeSeq
            stream.seqShown = storeSeq
            streams[rate] = stream
        }
        let frame: String? =
            patches.isEmpty
            ? nil
            : ScreenMessageEncoder.frame(
                number: stream.frameNumber, changes: changes, patches.map { (tileIDs[$0.index], $0.patch) })
        var recipients: [Int] = []
        var primed: [Int] = []
        var own: [HubAction] = []
        var skipped = 0
        var tooSlow: [Int] = []
        var numbered = false
        for id in stream.members {
            guard let index = sessions.index(forKey: id), !sessions.values[index].isPaused else { continue }
            let needsState = sessions.values[index].needsState
            let hasOwnTiles = sessions.values[index].hasOwnTiles
            if frame == nil, !needsState, !hasOwnTiles { continue }
            guard sessions.values[index].isWritable else {
                let since = sessions.values[index].blockedSince ?? now
                sessions.values[index].blockedSince = since
                if frame != nil { sessions.values[index].needsState = true }
                if now - since >= configuration.slowClientTimeout {
                    tooSlow.append(id)
                } else {
                    skipped += 1
                    sessions.values[index].framesSkipped += 1
                }
                continue
            }
            if sessions.values[index].blockedSince != nil { sessions.values[index].blockedSince = nil }
            if !needsState, !hasOwnTiles {
                recipients.append(id)  // the common case: the shared frame, with no copy of the session
                continue
            }
            var session = sessions.values[index]
            if needsState {
                session.needsState = false
                own.append(.send(text: stateText(for: &session, stream: stream, now: shown), to: id))
                if !hasOwnTiles { primed.append(id) }
            } else if let text = ownFrame(
                for: &session, stream: stream, number: stream.frameNumber + (patches.isEmpty ? 1 : 0), patches: patches,
                changes: changes, since: previous, now: shown)
            {
                if patches.isEmpty, !numbered {
                    // A frame of its own in a tick with no shared frame takes the next number, so numbers only rise.
                    stream.takeFrameNumber()
                    streams[rate] = stream
                    numbered = true
                }
                own.append(.send(text: text, to: id))
            }
            rejoinWhereReplaysRest(&session, stream: stream, now: shown)
            sessions[id] = session
        }
        var actions: [HubAction] = []
        if let frame, !recipients.isEmpty { actions.append(.broadcast(stream: rate, text: frame, to: recipients)) }
        actions += own
        if !primed.isEmpty { actions.append(.prime(stream: rate, to: primed)) }
        if skipped > 0 { actions.append(.skipped(skipped)) }
        for id in tooSlow {
            sessions.removeValue(forKey: id)
            actions += leave(id, stream: rate)
            actions.append(.closeTooSlow(session: id))
        }
        return actions
    }

    /// `{"type":"state",…}` with every tile: the stream's states, and the screen's own tiles as they are now.
    func stateText(for session: inout ClientSession, stream: FrameStream, now: Double) -> String {
        var states: [(id: String, state: TileState?)] = []
        for index in tiles.indices {
            var state = stream.states[index]
            if let own = session.ownTiles[index] {
                state = stream.isCalm ? own.tile.calmState(at: now) : own.tile.state(at: now)
                session.ownTiles[index]!.sent = state
            }
            states.append((tileIDs[index], state))
        }
        let replaying = session.ownTiles.values.contains { $0.isReplay }
        return ScreenMessageEncoder.state(
            frameNumber: stream.frameNumber, changes: replaying ? nil : storeSeq, tiles: states)
    }

    /// A screen being shown what it missed goes back to its stream's tiles one by one as each replay comes to rest
    /// where the stream's tile is; once none is left it gets a `state` (its columns' motion may differ from the
    /// stream's) and shares the stream's frames again.
    func rejoinWhereReplaysRest(_ session: inout ClientSession, stream: FrameStream, now: Double) {
        var rejoined = false
        for (index, own) in session.ownTiles where own.isReplay && own.tile.nextMotion(after: now) == nil {
            let stateShown = own.tile.state(at: now)
            guard let streamState = stream.states[index] else {
                if stateShown == nil {
                    session.ownTiles.removeValue(forKey: index)
                    rejoined = true
                }
                continue
            }
            guard let stateShown, stateShown.columns == streamState.columns, stateShown.members == streamState.members
            else { continue }
            session.ownTiles.removeValue(forKey: index)
            rejoined = true
        }
        if rejoined && !session.hasOwnTiles { session.needsState = true }
    }

    /// The frame of a screen with tiles of its own: the stream's patches for the others, its own tiles' changes.
    func ownFrame(
        for session: inout ClientSession, stream: FrameStream, number: Int, patches: [(index: Int, patch: String)],
        changes: UInt64?, since previous: Double, now: Double
    ) -> String? {
        var entries: [(index: Int, patch: String)] = patches.filter { session.ownTiles[$0.index] == nil }
        for index in session.ownTiles.keys.sorted() {
            let own = session.ownTiles[index]!
            if stream.isCalm {
                if let patch = TileState.patch(from: own.sent, to: own.tile.calmState(at: now)) {
                    entries.append((index, patch.text))
                    session.ownTiles[index]!.sent = patch.state
                }
                continue
            }
            guard let motion = own.tile.nextMotion(after: previous), motion <= now else { continue }
            let atRest = (own.tile.nextMotion(after: now) ?? .infinity) > now
            if let patch = TileState.patch(from: own.sent, to: own.tile.state(at: now), exact: atRest) {
                entries.append((index, patch.text))
                session.ownTiles[index]!.sent = patch.state
            }
        }
        guard !entries.isEmpty else { return nil }
        entries.sort { $0.index < $1.index }
        let replaying = session.ownTiles.values.contains { $0.isReplay }
        return ScreenMessageEncoder.frame(
            number: number, changes: replaying ? nil : changes, entries.map { (tileIDs[$0.index], $0.patch) })
    }
}
