import RollboardNet
import Synchronization

/// Connects one dashboard WebSocket to its hub: the hello on open, client messages in, departure on close.
final class DashboardSocket: WebSocketDelegate {
    private let hub: DashboardHub?
    private let fps: Int?
    private let sessionID = Mutex<Int?>(nil)

    /// - Parameter hub: `nil` for an unknown dashboard: the socket is closed with 4404 once open.
    init(hub: DashboardHub?, fps: Int?) {
        self.hub = hub
        self.fps = fps
    }

    func webSocketDidOpen(_ socket: WebSocket) {
        guard let hub else {
            socket.close(code: .unknownDashboard, reason: "unknown dashboard")
            return
        }
        let id = hub.connect(socket, fps: fps)
        sessionID.withLock { $0 = id }
    }

    func webSocket(_ socket: WebSocket, didReceiveText text: String) {
        guard let hub, let id = sessionID.withLock({ $0 }) else { return }
        hub.receive(text: text, from: id)
    }

    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {
        socket.close(code: .unsupportedData, reason: "binary messages are not part of the protocol")
    }

    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {
        guard let hub, let id = sessionID.withLock({ $0 }) else { return }
        hub.disconnect(id)
    }
}
