package import RollboardConfig

/// An operator's committed command to the screens of a dashboard or playlist: an event in the change log's sequence,
/// so the screens on every node follow it, and kept in no snapshot.
public struct StoredScreenCommand: StoredActionPart {
    public enum Action: Sendable, Equatable {
        /// Every screen of the dashboard shows `text` full-screen for `seconds` from the commit on; `0` takes an
        /// announcement down.
        case announce(dashboard: String, text: String, seconds: Double)
        /// Every screen of every dashboard and playlist shows `text`, as above.
        case announceEverywhere(text: String, seconds: Double)
        /// Every screen of the playlist shows `text`, as above, whichever dashboard it shows meanwhile.
        case announcePlaylist(playlist: String, text: String, seconds: Double)
        /// Every screen of the dashboard reloads its page.
        case reloadDashboard(String)
        /// Every screen of the playlist reloads its page.
        case reloadPlaylist(String)
        /// The screens named `screen` (on whichever node) go to `page`: `/d/ID?name=…` or `/p/ID?name=…` with its
        /// page options, without a key (each screen keeps its own). Written as kind 15 (``StoreChange/kinds``), so a
        /// node of an earlier version skips it.
        case assign(screen: String, page: String)
        /// The screens named `screen` (on whichever node) reload their page. Written as kind 16, so a node of an
        /// earlier version skips it.
        case reloadScreen(String)
        /// The screens named `screen` (on whichever node) show their name full-screen for `seconds` (more than 0) from
        /// the commit on. Written as kind 16, like ``reloadScreen(_:)``.
        case identify(screen: String, seconds: Double)

        /// The action's byte in the record.
        var tag: UInt8 {
            switch self {
            case .announce: 0
            case .reloadDashboard: 1
            case .reloadPlaylist: 2
            case .announceEverywhere: 3
            case .announcePlaylist: 4
            case .assign: 5
            case .reloadScreen: 6
            case .identify: 7
            }
        }

        /// Whether this is an assignment (kind 15 rather than 7).
        var isAssignment: Bool {
            if case .assign = self { true } else { false }
        }

        /// Whether this is a command to the screens of a name other than an assignment (kind 16 rather than 7).
        var isToNamedScreens: Bool {
            switch self {
            case .reloadScreen, .identify: true
            default: false
            }
        }
    }

    public var action: Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC: the moment the command was committed.
    public var updatedAt: Double

    /// Seconds of an announcement still to show at `now` (seconds since 1970): its seconds less the time since the
    /// commit; `nil` once an announcement has run out (a take-down, `0`, always applies and gives `0`).
    package func secondsLeft(at now: Double) -> Double? {
        let seconds: Double
        switch action {
        case .announce(_, _, let given), .announceEverywhere(_, let given), .announcePlaylist(_, _, let given),
            .identify(_, let given):
            seconds = given
        case .reloadDashboard, .reloadPlaylist, .assign, .reloadScreen:
            return nil
        }
        if seconds == 0 { return 0 }
        let left = seconds - max(0, now - updatedAt)
        return left > 0 ? left : nil
    }
}

extension StoredScreenCommand {
    /// `seq: UInt64 | action: UInt8 (0 announce on a dashboard, 1 reload a dashboard, 2 reload a playlist, 3 announce
    /// everywhere, 4 announce on a playlist, 5 assign a screen, 6 reload a screen, 7 identify a screen) | id (empty
    /// for 3; the screen's name for 5 to 7) | text (announcements only) | seconds: Float64 (announcements and 7) |
    /// page (5 only) | updatedAt: Float64`.
    static func write(_ action: Action, into writer: inout BinaryWriter) {
        writer.write(action.tag)
        switch action {
        case .announce(let id, let text, let seconds), .announcePlaylist(let id, let text, let seconds):
            writer.write(id)
            writer.write(text)
            writer.write(seconds)
        case .announceEverywhere(let text, let seconds):
            writer.write("")
            writer.write(text)
            writer.write(seconds)
        case .reloadDashboard(let id), .reloadPlaylist(let id), .reloadScreen(let id):
            writer.write(id)
        case .assign(let screen, let page):
            writer.write(screen)
            writer.write(page)
        case .identify(let screen, let seconds):
            writer.write(screen)
            writer.write(seconds)
        }
    }

    static func readAction(tag kind: UInt8, id: String, from reader: inout BinaryReader) -> Action? {
        let action: Action
        switch kind {
        case 0, 3, 4:
            guard kind != 3 || id.isEmpty, let text = reader.readString(), let seconds = reader.readDouble(),
                seconds.isFinite, seconds >= 0
            else { return nil }
            action =
                switch kind {
                case 0: .announce(dashboard: id, text: text, seconds: seconds)
                case 3: .announceEverywhere(text: text, seconds: seconds)
                default: .announcePlaylist(playlist: id, text: text, seconds: seconds)
                }
        case 1: action = .reloadDashboard(id)
        case 2: action = .reloadPlaylist(id)
        case 5:
            guard let page = reader.readString(), page.hasPrefix("/") else { return nil }
            action = .assign(screen: id, page: page)
        case 6: action = .reloadScreen(id)
        case 7:
            guard let seconds = reader.readDouble(), seconds.isFinite, seconds > 0 else { return nil }
            action = .identify(screen: id, seconds: seconds)
        default: return nil
        }
        return action
    }
}
