import Synchronization

/// Counts the server's open connections, in all and per client address, admits a new one only within both
/// limits, and paces the warning about refused ones. Safe from any queue.
final class ConnectionLimiter: Sendable {
    /// Whether a new connection may open, and which limit refused it if not.
    enum Admission: Equatable {
        case admitted
        case overTotal
        case overAddress
    }

    private struct State {
        var total = 0
        var perAddress: [PeerAddress: Int] = [:]
        var refusedSinceWarning = 0
        var lastWarning: ContinuousClock.Instant?
    }

    /// The most connections open at once.
    let maxConnections: Int
    /// The most connections open at once from one address; 0 means no limit per address.
    let maxConnectionsPerAddress: Int
    /// The shortest time between two warnings about refused connections.
    let warningInterval: Duration
    private let state = Mutex(State())

    init(maxConnections: Int, maxConnectionsPerAddress: Int, warningInterval: Duration = .seconds(10)) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.warningInterval = warningInterval
    }

    /// Counts a new connection from `address` (`nil` when unknown: counted in the total only) when both limits
    /// allow it; an admitted connection must be released once when it closes.
    func admit(_ address: PeerAddress?) -> Admission {
        state.withLock { state in
            guard state.total < maxConnections else { return .overTotal }
            if let address, maxConnectionsPerAddress > 0 {
                let count = state.perAddress[address, default: 0]
                guard count < maxConnectionsPerAddress else { return .overAddress }
                state.perAddress[address] = count + 1
            }
            state.total += 1
            return .admitted
        }
    }

    /// Forgets an admitted connection that closed.
    func release(_ address: PeerAddress?) {
        state.withLock { state in
            state.total -= 1
            if let address, maxConnectionsPerAddress > 0, let count = state.perAddress[address] {
                state.perAddress[address] = count > 1 ? count - 1 : nil
            }
        }
    }

    /// How many connections are counted for `address`.
    func connectionCount(from address: PeerAddress) -> Int {
        state.withLock { $0.perAddress[address, default: 0] }
    }

    /// Notes a refused connection at `now`. Returns how many were refused since the last warning (this one
    /// included) when a warning is due — the first refusal, then at most once per `warningInterval` — else `nil`.
    func noteRefusal(now: ContinuousClock.Instant) -> Int? {
        state.withLock { state in
            state.refusedSinceWarning += 1
            if let last = state.lastWarning, now - last < warningInterval { return nil }
            state.lastWarning = now
            defer { state.refusedSinceWarning = 0 }
            return state.refusedSinceWarning
        }
    }
}
