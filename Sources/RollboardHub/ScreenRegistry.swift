package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardStore
import Synchronization

/// The screens connected right now, across every dashboard: who they are (the name the page remembers, the address,
/// the browser), since when, and which hub session shows them.
package final class ScreenRegistry: Sendable {
    /// One connected screen.
    package struct Screen: Sendable {
        package let id: Int
        /// The dashboard it shows now (a playlist screen's changes with the rotation).
        package var dashboard: String
        /// The playlist it follows, if any.
        package var playlist: String?
        package let name: String?
        package let address: String?
        package let userAgent: String?
        /// The id of the viewer key it connected with, if it did (unpairing a TV revokes it).
        package let keyID: String?
        /// Seconds since 1970.
        package let connectedAt: Double
        package var hub: DashboardHub
        package var sessionID: Int
        /// What the screen last reported of its painting (frames per second, milliseconds per frame), if it did.
        package var paintedFPS: Double?
        package var paintMilliseconds: Double?
        /// The first script error the screen reported; later ones do not replace it.
        package var scriptError: String?
        /// The text tiles whose message this screen could not show at the legible minimum (at most
        /// ``unreadableLimit``, first reported first).
        package var unreadableTiles: [String] = []
    }

    /// The most unreadable tiles kept per screen.
    static let unreadableLimit = 32

    /// Longest screen name kept, in characters.
    static let nameLimit = 64

    private let screens = Mutex<[Int: Screen]>([:])
    private let nextID = Atomic<Int>(1)

    /// Records a screen that connected; returns its id.
    package func add(
        dashboard: String, playlist: String? = nil, name: String?, address: String?, userAgent: String?,
        keyID: String? = nil, connectedAt: Double, hub: DashboardHub, sessionID: Int
    ) -> Int {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let screen = Screen(
            id: id, dashboard: dashboard, playlist: playlist, name: name.flatMap { Self.cleanName($0) },
            address: address,
            userAgent: userAgent.map { String($0.prefix(256)) }, keyID: keyID, connectedAt: connectedAt, hub: hub,
            sessionID: sessionID)
        screens.withLock { $0[id] = screen }
        return id
    }

    /// Records that screen `id` (a playlist's) now shows `dashboard` through `hub`'s session `sessionID`.
    func move(_ id: Int, to dashboard: String, hub: DashboardHub, sessionID: Int) {
        screens.withLock { screens in
            screens[id]?.dashboard = dashboard
            screens[id]?.hub = hub
            screens[id]?.sessionID = sessionID
        }
    }

    /// Keeps what screen `id` reported: its latest painting figures, its first script error, the tiles it could not
    /// show legibly. Returns the screen as recorded when the report named an unreadable tile it had not named before
    /// (to be logged once), else `nil`.
    @discardableResult
    package func record(_ report: ClientMessage.Report, for id: Int) -> Screen? {
        screens.withLock { screens in
            guard var screen = screens[id] else { return nil }
            if let fps = report.paintedFPS { screen.paintedFPS = fps }
            if let milliseconds = report.paintMilliseconds { screen.paintMilliseconds = milliseconds }
            if screen.scriptError == nil { screen.scriptError = report.scriptError }
            var newlyUnreadable = false
            if let tile = report.unreadableTile, !screen.unreadableTiles.contains(tile),
                screen.unreadableTiles.count < Self.unreadableLimit
            {
                screen.unreadableTiles.append(tile)
                newlyUnreadable = true
            }
            screens[id] = screen
            return newlyUnreadable ? screen : nil
        }
    }

    /// Forgets a screen that went away.
    package func remove(_ id: Int) {
        _ = screens.withLock { $0.removeValue(forKey: id) }
    }

    /// Every connected screen, oldest first.
    package var all: [Screen] {
        screens.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    /// How many connected screens show `dashboard` (a playlist's screens among them while it shows it).
    package func count(showing dashboard: String) -> Int {
        screens.withLock { $0.values.count(where: { $0.dashboard == dashboard }) }
    }

    /// How many connected screens are named `name`.
    package func count(named name: String) -> Int {
        screens.withLock { $0.values.count(where: { $0.name == name }) }
    }

    /// The screen with id `id`, if it is connected.
    package func screen(_ id: Int) -> Screen? {
        screens.withLock { $0[id] }
    }

    /// `name` without control characters or surrounding blanks, at most `limit` characters; `nil` if nothing is left.
    package static func cleanName(_ name: String, limit: Int = nameLimit) -> String? {
        name.visibleText(limit: limit)
    }
}
