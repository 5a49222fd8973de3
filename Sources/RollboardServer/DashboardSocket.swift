import Logging
package import RollboardAPI
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardStore
import Synchronization

/// Connects one screen's WebSocket to what it shows — a dashboard's hub, or a playlist's — the hello on open, client
/// messages in (within the screen's message limits), departure on close.
final class DashboardSocket: WebSocketDelegate {
    /// What a screen shows.
    package enum Target {
        case dashboard(DashboardHub)
        case playlist(PlaylistHub)
    }

    private let target: Target?
    private let fps: Int?
    private let calm: Bool
    private let since: ResumePoint?
    private let protocolVersion: String?
    private let access: AccessDecision
    private let credential: AdmittedScreens.Credential
    private let viewerKeys: ViewerKeys?
    private let screens: ScreenRegistry?
    private let screenID = Mutex<Int?>(nil)
    private let gate: ClientMessageGate
    private let clock: NodeClock
    private let logger: Logger?
    private let sessionID = Mutex<Int?>(nil)

    /// - Parameters:
    ///   - target: `nil` for an unknown dashboard or playlist: the socket is closed with 4404 once open.
    ///   - calm: reduced motion: the screen is sent only where changes end.
    ///   - since: where a dashboard screen that comes back stood, to be shown what it missed.
    ///   - protocolVersion: the `protocol` the client asked for, if it did; any other than the hub's closes the socket
    ///     with 4406 once open.
    ///   - access: whether the screen may watch the target; it is closed with 1008 once open if not.
    ///   - credential: what the screen presented; while it is open, it is judged again by it whenever access narrows
    ///     (a reload, a revoked key on any node) and closed with 1008 once it is no longer admitted.
    ///   - screens: where a dashboard's screen is listed while it is connected (with the `name` of its address, its
    ///     browser); a playlist lists its screens itself.
    ///   - messageLimits: how much this screen may send before it is closed with 1008.
    ///   - clock: the node's clock: times the message rate, and when the screen connected.
    ///   - logger: where a text tile a screen cannot show legibly is logged (once per screen and tile).
    init(
        target: Target?, fps: Int?, calm: Bool = false, since: ResumePoint? = nil, protocolVersion: String? = nil,
        access: AccessDecision = .granted(viewerKey: nil), credential: AdmittedScreens.Credential = .none,
        viewerKeys: ViewerKeys? = nil, screens: ScreenRegistry? = nil,
        messageLimits: ClientMessageGate.Limits = .init(), clock: NodeClock = .system, logger: Logger? = nil
    ) {
        self.target = target
        self.fps = fps
        self.calm = calm
        self.since = since
        self.protocolVersion = protocolVersion
        self.access = access
        self.credential = credential
        self.viewerKeys = viewerKeys
        self.screens = screens
        self.gate = ClientMessageGate(limits: messageLimits)
        self.clock = clock
        self.logger = logger
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        guard let target else {
            socket.close(code: .unknownDashboard, reason: "unknown dashboard")
            return
        }
        if let protocolVersion, protocolVersion != "\(ScreenMessageEncoder.protocolVersion)" {
            socket.close(
                code: .unsupportedProtocol, reason: "this server speaks protocol \(ScreenMessageEncoder.protocolVersion)")
            return
        }
        if let reason = access.closeReason {
            socket.close(code: .policyViolation, reason: reason)
            return
        }
        if let viewerKeys {
            let admitted: AdmittedScreens.Target =
                switch target {
                case .dashboard(let hub): .dashboard(hub.dashboardID)
                case .playlist(let playlist): .playlist(playlist.configuration.id)
                }
            // Listed first, then checked: a revocation applied in between finds the screen listed or the key gone.
            viewerKeys.screens.add(socket, target: admitted, credential: credential)
            if case .key(let id) = credential, viewerKeys.key(id) == nil {
                viewerKeys.screens.remove(socket)
                socket.close(code: .policyViolation, reason: "viewer key revoked")
                return
            }
        }
        let name = socket.request.query["name"]
        let userAgent = socket.request.headers["User-Agent"]
        switch target {
        case .dashboard(let hub):
            let id = hub.connect(socket, fps: fps, calm: calm, since: since)
            sessionID.withLock { $0 = id }
            if let screens {
                let listed = screens.add(
                    dashboard: hub.dashboardID, name: name, address: socket.remoteAddress, userAgent: userAgent,
                    keyID: credential.keyID, connectedAt: clock.wall.now(), hub: hub, sessionID: id)
                screenID.withLock { $0 = listed }
            }
        case .playlist(let playlist):
            let id = playlist.connect(
                socket, fps: fps, calm: calm, name: name, address: socket.remoteAddress, userAgent: userAgent,
                keyID: credential.keyID)
            sessionID.withLock { $0 = id }
        }
    }

    func webSocket(_ socket: WebSocket, didReceiveText text: String) {
        guard let target, let id = sessionID.withLock({ $0 }) else { return }
        if let refusal = gate.admit(now: clock.monotonic.now()) {
            socket.close(code: .policyViolation, reason: refusal.description)
            return
        }
        let gate = self.gate
        if text.contains("\"report\""), case .success(.report(let report)) = ClientMessage.parse(text),
            let listed = screenID.withLock({ $0 })
        {
            if let screen = screens?.record(report, for: listed), let tile = report.unreadableTile {
                logger?.warning(
                    "a text too long to read from across the room: shown cut at the legible minimum (the title's size)",
                    metadata: [
                        "dashboard": "\(screen.dashboard)", "tile": "\(tile)", "screen": "\(screen.id)",
                        "name": "\(screen.name ?? "")",
                    ])
            }
        }
        switch target {
        case .dashboard(let hub): hub.receive(text: text, from: id) { gate.finished() }
        case .playlist(let playlist): playlist.receive(text: text, from: id) { gate.finished() }
        }
    }

    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {
        socket.close(code: .unsupportedData, reason: "binary messages are not part of the protocol")
    }

    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
        viewerKeys?.screens.remove(socket)
        if let listed = screenID.withLock({ $0 }) { screens?.remove(listed) }
        guard let target, let id = sessionID.withLock({ $0 }) else { return }
        switch target {
        case .dashboard(let hub): hub.disconnect(id)
        case .playlist(let playlist): playlist.disconnect(id)
        }
    }
}
