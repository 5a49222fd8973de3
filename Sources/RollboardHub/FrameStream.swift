package import RollboardConfig
package import RollboardStore

/// The frames of every screen of one dashboard at one frame rate and motion: the tile states the stream last sent,
/// its frame number and its clock. Screens in the stream are sent the same bytes. A calm stream shows every tile as
/// its animation will end (``LiveTile/calmState(at:)``): a change is one jump, never frames in between.
struct FrameStream {
    let fps: Int
    let isCalm: Bool
    /// The number of the last frame; the next frame patches `states`.
    private(set) var frameNumber = 0
    /// Every tile's state as of the last frame (or the stream's start).
    private(set) var states: [TileState?]
    /// When `states` were taken: anything that moves after it owes the stream a frame.
    private(set) var statesTime: Double
    /// The earliest time of the next frame.
    private(set) var nextFrameAt: Double
    /// The store's sequence number the stream's frames last said its tiles show (`"c"`).
    var seqShown: UInt64 = 0
    /// For a calm stream: how many of the hub's changes its states show.
    var changesShown = 0
    /// The stream's screens, in the order they joined.
    var members: [Int] = []

    init(fps: Int, isCalm: Bool = false, tiles: [any LiveTile], now: Double) {
        self.fps = fps
        self.isCalm = isCalm
        self.states = tiles.map { isCalm ? $0.calmState(at: now) : $0.state(at: now) }
        self.statesTime = now
        self.nextFrameAt = now
    }

    /// Whether a frame is due at `now` (within a quarter frame).
    func isDue(at now: Double) -> Bool {
        now + 0.25 / Double(fps) >= nextFrameAt
    }

    /// The earliest time at or after `now` when a tile moves (in a calm stream: when a calm state may change by
    /// itself), no earlier than the next frame slot.
    func nextMotion(of tiles: [any LiveTile], after now: Double) -> Double? {
        let motions = tiles.compactMap { isCalm ? $0.nextCalmMotion(after: statesTime) : $0.nextMotion(after: statesTime) }
        guard let motion = motions.min() else { return nil }
        return max(motion, nextFrameAt, now)
    }

    /// Uses up the next frame number for a screen's frame of its own in a tick without a shared frame.
    mutating func takeFrameNumber() {
        frameNumber += 1
    }

    /// Moves the stream to its next frame, due at `now`: every tile that moved since the last frame is encoded once,
    /// as a patch of its last state. Returns the changed tiles' indices and patches, in layout order (empty: nothing
    /// to send); `statesTime` is then the moment the frame shows.
    ///
    /// Frames show the moments of a grid one frame apart, not the moment the timer fired, so a column turning at a
    /// constant speed moves by the same amount in every frame. A tick more than a frame late restarts the grid at
    /// `now`; a frame never shows a moment before `floor` (the last change the tiles took).
    mutating func advance(_ tiles: [any LiveTile], to now: Double, notBefore floor: Double = -.infinity)
        -> [(index: Int, patch: String)]
    {
        let previous = statesTime
        let period = 1 / Double(fps)
        let time = now - nextFrameAt < period ? max(nextFrameAt, floor) : now
        statesTime = time
        nextFrameAt = time + period
        var patches: [(index: Int, patch: String)] = []
        if isCalm {
            for index in tiles.indices {
                if let patch = TileState.patch(from: states[index], to: tiles[index].calmState(at: time)) {
                    patches.append((index, patch.text))
                    states[index] = patch.state
                }
            }
            if !patches.isEmpty { frameNumber += 1 }
            return patches
        }
        for index in tiles.indices {
            guard let motion = tiles[index].nextMotion(after: previous), motion <= time else { continue }
            let atRest = (tiles[index].nextMotion(after: time) ?? .infinity) > time
            if let patch = TileState.patch(from: states[index], to: tiles[index].state(at: time), exact: atRest) {
                patches.append((index, patch.text))
                states[index] = patch.state
            }
        }
        if !patches.isEmpty { frameNumber += 1 }
        return patches
    }
}
