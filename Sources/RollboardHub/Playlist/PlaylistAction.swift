package import RollboardConfig
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// What a playlist's state machine asks its driver to do, in order.
enum PlaylistAction: Equatable {
    /// Takes screen `screen` off hub session `session`; once that hub has sent it everything it had for it, the
    /// driver reports ``PlaylistStateMachine/left(_:generation:now:)`` with `generation`.
    case leave(screen: Int, session: Int, generation: Int)
    /// Joins screen `screen` to `dashboard`'s hub, which sends it `greeting` (the playlist message) before its
    /// hello; the driver reports the new session with ``PlaylistStateMachine/joined(_:session:)``.
    case join(screen: Int, dashboard: String, greeting: String)
    /// Sends `text` to screen `screen` through its hub session `session`, in order with its frames.
    case send(text: String, screen: Int, session: Int)
    /// Forgets a screen that went away: off its hub session (if it has one) and off the list of screens.
    case forget(screen: Int, session: Int?)
    /// Like `forget`, then closes the screen's WebSocket with `code`.
    case close(screen: Int, session: Int?, code: WebSocketCloseCode, reason: String)
    /// Answers whoever waits on `waiter` (``PlaylistStateMachine/waitApplied(_:waiter:timeout:now:)``): applied, or
    /// timed out.
    case answer(waiter: Int, applied: Bool)
    /// The driver should call ``PlaylistStateMachine/tick(now:)`` at this time (on the wall clock); `nil`: never.
    case wake(at: Double?)
}
