import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
    /// `seconds` from now; negative or NaN is now, and anything beyond a year is a year.
    static func deadline(after seconds: Double) -> DispatchTime {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 24 * 3600)
        return .now() + clamped
    }

    /// Makes the timer fire at `deadline` unless it already fires earlier.
    func scheduleTimer(_ deadline: DispatchTime) {
        if let timerDeadline, timerDeadline <= deadline { return }
        timerDeadline = deadline
        let timer: any DispatchSourceTimer
        if let existing = self.timer {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.timerFired() }
            timer.resume()
            self.timer = timer
        }
        timer.schedule(deadline: deadline, leeway: .milliseconds(10))
    }

    func timerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        timerDeadline = nil
        let now = DispatchTime.now()
        switch state {
        case .idle, .closed:
            return
        case .connecting, .tlsHandshaking, .preparing:
            if let connectDeadline, connectDeadline <= now {
                finish(.connectFailed(connectTimeoutMessage()))
                return
            }
        case .ready:
            if let earliest = earliestPendingDeadline(), earliest <= now {
                logger.debug("a reply timed out; closing the connection")
                finish(.timedOut)
                return
            }
        }
        let next = [connectDeadline, earliestPendingDeadline()].compactMap { $0 }.min()
        if let next { scheduleTimer(next) }
    }

    func earliestPendingDeadline() -> DispatchTime? {
        pending[pendingHead...].lazy.compactMap { $0?.deadline }.min()
    }

    func connectTimeoutMessage() -> String {
        let url = configuration.url
        let target = url.host.contains(":") ? "[\(url.host)]:\(url.port)" : "\(url.host):\(url.port)"
        let phase =
            switch state {
            case .tlsHandshaking: " during the TLS handshake"
            case .preparing: " waiting for the replies to the setup commands"
            default: lastConnectFailure.map { " (last failure: \($0))" } ?? ""
            }
        return "no connection to \(target) within \(configuration.connectTimeout) s\(phase)"
    }
}
