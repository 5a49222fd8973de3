package import RollboardConfig
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// What the hub's state machine asks its driver to do, in order.
enum HubAction: Equatable {
    /// Sends a message of one screen's own (its `hello`, a `state`, a frame of a screen with its own carousel).
    case send(text: String, to: Int)
    /// Sends the next message of stream `stream` (the screens at that frame rate and motion) to the screens `to`; it is encoded
    /// and compressed once for all of them.
    case broadcast(stream: StreamKey, text: String, to: [Int])
    /// Sends stream `stream`'s primer to the screens `to`, which take the stream's messages from the next one on.
    case prime(stream: StreamKey, to: [Int])
    /// Stream `stream` has no screens left; its compressor can go.
    case endStream(StreamKey)
    /// Closes one screen's WebSocket.
    case close(session: Int, code: WebSocketCloseCode, reason: String)
    /// Closes a screen that stayed over its outbound watermark for longer than the slow-client timeout.
    case closeTooSlow(session: Int)
    /// A tile refused a producer's change (it stays as it was).
    case changeRefused(tile: String, reason: String)
    /// This many screens were due a frame but could not take it (their connection was backed up).
    case skipped(Int)
    /// The driver should call `tick(now:)` at this time (on the hub's clock).
    case wake(at: Double)
}
