package import RollboardConfig
package import RollboardMetrics

/// One connected screen as the hub sees it: its frame rate, whether it is in step with its stream, and the tiles a
/// viewer moved on this screen alone.
struct ClientSession {
    /// A tile this screen shows on its own (its viewer held or moved a carousel, or it is being shown the changes it
    /// missed while away), and its state as last sent.
    struct OwnTile {
        var tile: any LiveTile
        var sent: TileState?
        /// A replay of missed changes: once it rests where the stream's tile is, the screen goes back to the stream's.
        var isReplay = false
    }

    let id: Int
    private(set) var fps: Int
    /// Reduced motion: the screen is sent only final states.
    let isCalm: Bool
    var isPaused = false
    /// Whether the screen must be sent every tile's state before frames (it joined a stream, resumed, or skipped a
    /// frame).
    var needsState = false
    /// Whether the screen's connection can take another message, as the driver last said
    /// (``HubStateMachine/screenIsFull(_:)``, ``HubStateMachine/screenBecameWritable(_:)``).
    var isWritable = true
    /// Since when the screen's connection has been backed up while frames were due.
    var blockedSince: Double?
    /// Frames the screen was due but could not take, since it connected.
    var framesSkipped = 0
    /// Tiles by index that this screen shows on its own; while there are any, its frames are its own.
    var ownTiles: [Int: OwnTile] = [:]

    init(id: Int, fps: Int, isCalm: Bool = false) {
        self.id = id
        self.fps = fps
        self.isCalm = isCalm
    }

    /// The stream the screen is on.
    var stream: StreamKey { StreamKey(fps: fps, isCalm: isCalm) }

    /// Whether the screen's frames are its own rather than the stream's.
    var hasOwnTiles: Bool { !ownTiles.isEmpty }

    /// Moves the screen to another frame rate; it then needs a full state from its new stream.
    mutating func setFPS(_ value: Int) {
        fps = value
        needsState = true
    }
}
