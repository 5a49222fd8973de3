
/// An operator's committed command to a playlist: an event in the change log's sequence, applied by every node at the
/// moment it was committed, so every node's screens hold, resume or switch together.
public struct StoredPlaylistCommand: StoredIndexedCommand {
    public enum Action: Sendable, Equatable {
        /// Stop the rotation on the entry showing.
        case hold
        /// Start it again from the beginning of the held entry.
        case resume
        /// Show this 0-based entry for its full seconds.
        case show(entry: Int)
    }

    public var id: String
    public var action: Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC: the moment the command takes effect on every node.
    public var updatedAt: Double
}

extension StoredPlaylistCommand.Action: IndexedAction {
    /// 0 hold, 1 resume; 2 show, with its entry.
    static let plainActions: [Self] = [.hold, .resume]

    static func indexed(_ entry: Int) -> Self { .show(entry: entry) }

    var index: Int? {
        guard case .show(let entry) = self else { return nil }
        return entry
    }
}
