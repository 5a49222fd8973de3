package import RollboardConfig
import RollboardNet
package import RollboardStore

/// A text tile: a short message, and the colour it is shown in, that producers replace. It never moves by itself;
/// a new message is one change, calm or not.
struct TextTile: LiveTile {
    let tileID: String
    private(set) var text: String
    private(set) var color: String?
    /// When the message last changed (on the hub's clock); frames from then on show it.
    private var changedAt = -Double.infinity

    init(tileID: String, text: String, color: String? = nil) {
        self.tileID = tileID
        self.text = text
        self.color = color
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .text(let text, let color) = change else { return }
        self.text = text
        self.color = color
        changedAt = time
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    /// `{"text":"…","color":"#rrggbb"}`, without `color` when there is none.
    func state(at time: Double) -> TileState? {
        var members = [TileState.Member("text", JSONText.quoted(text))]
        if let color { members.append(.init("color", JSONText.quoted(color))) }
        return TileState(members: members)
    }

    /// Shows a new message within ``ChangeWindow``; otherwise at rest.
    func nextMotion(after time: Double) -> Double? {
        ChangeWindow.nextMotion(after: time, changedAt: changedAt)
    }

    func calmState(at time: Double) -> TileState? {
        state(at: time)
    }

    /// Calm streams show every change the tiles take; a text changes only then.
    func nextCalmMotion(after time: Double) -> Double? {
        nil
    }
}
