package import RollboardConfig
package import RollboardStore

/// What a screen is told first (docs/protocol.md, `hello`), as ``HubStateMachine/connect(_:fps:calm:since:now:)``
/// decides it; ``ScreenMessageEncoder/hello(_:)`` writes it.
struct HelloMessage {
    /// The frame rate the screen gets.
    var fps: Int
    /// The rates the screen may ask for (`fpsRange`): the page steps its rate within them.
    var fpsRange: ClosedRange<Int>
    /// Reduced motion: the screen is on a calm stream (`"motion":"reduced"`).
    var isCalm: Bool
    /// The number of its stream's last frame (`seq`).
    var frameNumber: Int
    /// The store's epoch and the sequence number of the last stored change the screen is shown (`changes`).
    var epoch: String
    var changesSeq: UInt64
    /// How a screen that came back is shown what it missed (`replay`, `none`, `full`); `nil` for a new screen.
    var resume: String?
    /// `false` while changes do not reach this node (`"feed":"stale"`).
    var isFeedLive: Bool
    /// The `dashboard` object, already encoded.
    var dashboard: String
    /// Every tile's state, in layout order.
    var tiles: [(id: String, state: TileState?)]
    /// The page the node serves (`page`), so a screen running an older one reloads; `nil` when it has no build.
    var page: PageBuild? = nil
}
