import Foundation
import RollboardNet
import Synchronization

/// Connects one dashboard WebSocket to its hub: the hello on open, client messages in (within the screen's message
/// limits), departure on close.
final class DashboardSocket: WebSocketDelegate {
    private let hub: DashboardHub?
    private let fps: Int?
    private let calm: Bool
    private let protocolVersion: String?
    private let access: AccessDecision
    private let viewerKeys: ViewerKeys?
    private let screens: ScreenRegistry?
    private let screenID = Mutex<Int?>(nil)
    private let gate: ClientMessageGate
    private let clock: FrameClock
    private let sessionID = Mutex<Int?>(nil)

    /// - Parameters:
    ///   - hub: `nil` for an unknown dashboard: the socket is closed with 4404 once open.
    ///   - calm: reduced motion: the screen is sent only where changes end.
    ///   - protocolVersion: the `protocol` the client asked for, if it did; any other than the hub's closes the socket
    ///     with 4406 once open.
    ///   - access: whether the screen may watch the dashboard; it is closed with 1008 once open if not, and with 1008
    ///     when the viewer key it opened with is revoked.
    ///   - screens: where the screen is listed while it is connected (with the `name` of its address, its browser).
    ///   - messageLimits: how much this screen may send before it is closed with 1008.
    ///   - clock: times the message rate.
    init(
        hub: DashboardHub?, fps: Int?, calm: Bool = false, protocolVersion: String? = nil, access: AccessDecision = .granted(viewerKey: nil),
        viewerKeys: ViewerKeys? = nil, screens: ScreenRegistry? = nil, messageLimits: ClientMessageGate.Limits = .init(),
        clock: FrameClock = .monotonic()
    ) {
        self.screens = screens
        self.hub = hub
        self.fps = fps
        self.calm = calm
        self.protocolVersion = protocolVersion
        self.access = access
        self.viewerKeys = viewerKeys
        self.gate = ClientMessageGate(limits: messageLimits)
        self.clock = clock
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        guard let hub else {
            socket.close(code: .unknownDashboard, reason: "unknown dashboard")
            return
        }
        if let protocolVersion, protocolVersion != "\(HubStateMachine.protocolVersion)" {
            socket.close(
                code: .unsupportedProtocol, reason: "this server speaks protocol \(HubStateMachine.protocolVersion)")
            return
        }
        switch access {
        case .keyRequired:
            socket.close(code: .policyViolation, reason: "viewer key required")
            return
        case .keyRefused:
            socket.close(code: .policyViolation, reason: "viewer key refused")
            return
        case .granted(let key?):
            guard viewerKeys?.attach(socket, to: key) == true else {
                socket.close(code: .policyViolation, reason: "viewer key revoked")
                return
            }
        case .granted(nil):
            break
        }
        let id = hub.connect(socket, fps: fps, calm: calm)
        sessionID.withLock { $0 = id }
        if let screens {
            let listed = screens.add(
                dashboard: hub.dashboardID, name: socket.request.query["name"], address: socket.remoteAddress,
                userAgent: socket.request.headers["User-Agent"], connectedAt: Date().timeIntervalSince1970, hub: hub,
                sessionID: id)
            screenID.withLock { $0 = listed }
        }
    }

    func webSocket(_ socket: WebSocket, didReceiveText text: String) {
        guard let hub, let id = sessionID.withLock({ $0 }) else { return }
        if let refusal = gate.admit(now: clock.now()) {
            socket.close(code: .policyViolation, reason: refusal.description)
            return
        }
        let gate = self.gate
        hub.receive(text: text, from: id) { gate.finished() }
    }

    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {
        socket.close(code: .unsupportedData, reason: "binary messages are not part of the protocol")
    }

    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
        if case .granted(let key?) = access { viewerKeys?.detach(socket, from: key) }
        if let listed = screenID.withLock({ $0 }) { screens?.remove(listed) }
        guard let hub, let id = sessionID.withLock({ $0 }) else { return }
        hub.disconnect(id)
    }
}
