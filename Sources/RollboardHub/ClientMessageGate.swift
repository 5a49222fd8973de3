package import RollboardConfig
package import RollboardStore
import Synchronization

/// How much one screen may send: a rate with a burst allowance, and a cap on its messages waiting for the hub.
///
/// A page sends a handful of messages a minute (`fps`, `pause`/`resume`, carousel actions); a screen beyond these
/// limits is hostile or broken and is closed with 1008, so one screen can neither queue unbounded work on a hub
/// nor keep its shard busy.
package final class ClientMessageGate: Sendable {
    /// The limits of one screen.
    package struct Limits: Sendable, Equatable {
        /// Messages per second allowed on average.
        var perSecond: Double = 10
        /// Messages allowed at once beyond the average (a page sends several when it becomes visible).
        var burst: Double = 30
        /// Messages handed to the hub and not yet handled.
        var maxQueued: Int = 16

        package init(perSecond: Double = 10, burst: Double = 30, maxQueued: Int = 16) {
            self.perSecond = perSecond
            self.burst = burst
            self.maxQueued = maxQueued
        }
    }

    /// Why a message was refused.
    package enum Refusal: Equatable, CustomStringConvertible {
        case tooFast
        case tooManyQueued

        package var description: String {
            switch self {
            case .tooFast: "too many messages"
            case .tooManyQueued: "too many messages waiting"
            }
        }
    }

    private struct State {
        var tokens: Double
        var refilledAt: Double?
        var queued = 0
    }

    private let limits: Limits
    private let state: Mutex<State>

    package init(limits: Limits = Limits()) {
        self.limits = limits
        self.state = Mutex(State(tokens: limits.burst))
    }

    /// Takes one message received at `now` (seconds on a monotonic clock): `nil` when it may go to the hub (call
    /// `finished()` once the hub has handled it), or why it may not.
    package func admit(now: Double) -> Refusal? {
        state.withLock { state in
            if let last = state.refilledAt {
                state.tokens = min(limits.burst, state.tokens + max(0, now - last) * limits.perSecond)
            }
            state.refilledAt = now
            guard state.queued < limits.maxQueued else { return .tooManyQueued }
            guard state.tokens >= 1 else { return .tooFast }
            state.tokens -= 1
            state.queued += 1
            return nil
        }
    }

    /// The hub has handled one admitted message.
    package func finished() {
        state.withLock { $0.queued -= 1 }
    }

    /// Admitted messages the hub has not handled yet.
    var queued: Int {
        state.withLock { $0.queued }
    }
}
