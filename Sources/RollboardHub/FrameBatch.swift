package import RollboardAccess
import RollboardNet
package import RollboardStore

/// One stream message on its way to many screens: every sink puts itself in (``FrameSink/join(_:)``), WebSockets are
/// handed the message with one hop per event loop (``WebSocket/send(_:to:)``), any other sink one by one.
package struct FrameBatch {
    private var sockets: [WebSocket] = []
    private var others: [any FrameSink] = []

    /// A batch for about `capacity` screens.
    init(capacity: Int) {
        sockets.reserveCapacity(capacity)
    }

    mutating func add(socket: WebSocket) {
        sockets.append(socket)
    }

    mutating func add(sink: any FrameSink) {
        others.append(sink)
    }

    /// Sends `message` to every sink in the batch.
    func send(_ message: PreparedMessage) {
        for sink in others { sink.send(message) }
        WebSocket.send(message, to: sockets)
    }
}
