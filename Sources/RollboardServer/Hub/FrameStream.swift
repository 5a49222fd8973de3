/// The frames of every screen of one dashboard at one frame rate: the tile states the stream last sent, its frame
/// number and its clock. Screens in the stream are sent the same bytes.
struct FrameStream {
    let fps: Int
    /// The number of the last frame; the next frame patches `states`.
    private(set) var frameNumber = 0
    /// Every tile's state as of the last frame (or the stream's start).
    private(set) var states: [TileState?]
    /// When `states` were taken: anything that moves after it owes the stream a frame.
    private(set) var statesTime: Double
    /// The earliest time of the next frame.
    private(set) var nextFrameAt: Double
    /// The stream's screens, in the order they joined.
    var members: [Int] = []

    init(fps: Int, tiles: [any LiveTile], now: Double) {
        self.fps = fps
        self.states = tiles.map { $0.state(at: now) }
        self.statesTime = now
        self.nextFrameAt = now
    }

    /// Whether a frame is due at `now` (within a quarter frame).
    func isDue(at now: Double) -> Bool {
        now + 0.25 / Double(fps) >= nextFrameAt
    }

    /// The earliest time at or after `now` when a tile moves, no earlier than the next frame slot.
    func nextMotion(of tiles: [any LiveTile], after now: Double) -> Double? {
        guard let motion = tiles.compactMap({ $0.nextMotion(after: statesTime) }).min() else { return nil }
        return max(motion, nextFrameAt, now)
    }

    /// Moves the stream to `now`: every tile that moved since the last frame is encoded once, as a patch of its last
    /// state. Returns the changed tiles' indices and patches, in layout order (empty: nothing to send).
    mutating func advance(_ tiles: [any LiveTile], to now: Double) -> [(index: Int, patch: String)] {
        let previous = statesTime
        statesTime = now
        nextFrameAt = max(nextFrameAt + 1 / Double(fps), now + 0.5 / Double(fps))
        var patches: [(index: Int, patch: String)] = []
        for index in tiles.indices {
            guard let motion = tiles[index].nextMotion(after: previous), motion <= now else { continue }
            let state = tiles[index].state(at: now)
            var patch = ""
            if TileState.appendPatch(from: states[index], to: state, into: &patch) {
                patches.append((index, patch))
                states[index] = state
            }
        }
        if !patches.isEmpty { frameNumber += 1 }
        return patches
    }
}
