import RollboardCore

/// The console's sign-in sessions (`/admin`), as a state machine: every call takes `now` (seconds on the node's
/// monotonic clock) and answers with a decision; a thin driver (the API's sessions handler) draws the random secrets,
/// sets the cookie and keeps the machine behind a lock.
///
/// A session is kept by its secret's SHA-256 digest only (the cookie's value is never stored), with its CSRF token,
/// when it was made (wall clock, for the list), when it was last used and the address that signed in. It ends after
/// `Defaults.idleLifetime` seconds without a request, on sign-out or revocation. Sessions live in this node's memory:
/// a session is per node, and a restart signs everyone out. At most `Defaults.maxSessions` at once; past it, the
/// least recently used one goes.
///
/// Failed sign-ins (a wrong admin token) are counted per client address and overall in windows of
/// `Defaults.signInWindow` seconds; past `Defaults.failedSignInsPerAddress` or `Defaults.failedSignIns`, every sign-in
/// from that address (or from anywhere) is refused until the window ends, the right token's too.
package struct ConsoleSessions: Sendable {
    package enum Defaults {
        /// The cookie that carries a session's secret, and the header a write made with it carries the CSRF token in.
        package static let (cookieName, csrfHeader) = ("rollboard_session", "X-CSRF-Token")
        /// Seconds without a request after which a session ends: 12 hours.
        package static let idleLifetime: Double = 12 * 3_600
        /// Sessions kept at once on a node, and the hex digits of a session's digest the list shows as its id.
        package static let (maxSessions, idLength) = (1_000, 16)
        /// Failed sign-ins per client address and window, over all addresses per window, and the window's seconds.
        package static let (failedSignInsPerAddress, failedSignIns, signInWindow) = (10, 100, 60.0)
        /// Client addresses whose failed sign-ins are remembered at once; past it, those whose window ended go.
        package static let trackedAddresses = 10_000
    }

    /// One session as the list shows it: never its secret or CSRF token.
    package struct Listing: Sendable, Equatable {
        /// The first ``Defaults/idLength`` hex digits of the secret's digest; the address that signed in.
        package var id, address: String
        /// Wall-clock seconds since 1970.
        package var createdAt, lastUsedAt: Double

        package init(id: String, createdAt: Double, lastUsedAt: Double, address: String) {
            (self.id, self.createdAt, self.lastUsedAt, self.address) = (id, createdAt, lastUsedAt, address)
        }
    }

    /// What a request made with a session's cookie may do.
    package enum Decision: Sendable, Equatable {
        /// It may go on; `id` is its session's, `csrfToken` what its writes must carry.
        case allowed(id: String, csrfToken: String)
        /// No such session (never made, signed out or revoked): 401.
        case unknown
        /// The session was idle too long and is gone now: 401.
        case expired
        /// A write without the session's CSRF token, or with another one: 403.
        case csrfRefused
    }

    private struct Session {
        var id, csrfToken, address: String
        /// Wall-clock seconds (for the list), and monotonic seconds of the last use (for the idle expiry).
        var createdAt, lastUsedAt, lastUsed: Double
    }

    /// Per secret digest (hex).
    private var sessions: [String: Session] = [:]
    private var failedSignIns = AttemptWindows(
        perAddress: Defaults.failedSignInsPerAddress, overall: Defaults.failedSignIns, window: Defaults.signInWindow,
        trackedAddresses: Defaults.trackedAddresses)

    package init() {}

    /// How many sessions are kept.
    package var count: Int { sessions.count }

    /// Starts a session for the cookie `secret` (fresh from the driver: a secret a client sent is never made a
    /// session), with its CSRF token; `wallNow` is the wall clock's seconds. Answers the session's id.
    package mutating func create(
        secret: String, csrfToken: String, address: String, now: Double, wallNow: Double
    ) -> String {
        prune(now: now)
        if sessions.count >= Defaults.maxSessions,
            let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })
        {
            sessions[oldest.key] = nil
        }
        let digest = SHA256.hex(secret)
        let id = String(digest.prefix(Defaults.idLength))
        sessions[digest] = Session(
            id: id, csrfToken: csrfToken, address: address, createdAt: wallNow, lastUsedAt: wallNow, lastUsed: now)
        return id
    }

    /// Seconds until a sign-in from `address` may be tried again, when it or every address together failed too often
    /// in the window running at `now`; `nil` when it may sign in now.
    package func signInRetryAfter(address: String, now: Double) -> Double? {
        failedSignIns.retryAfter(address, now: now)
    }

    /// A sign-in from `address` presented a wrong admin token at `now`.
    package mutating func signInFailed(address: String, now: Double) {
        failedSignIns.count(address, now: now)
    }

    /// Whether a request with the cookie `secret` may go on; a write (`isWrite`) must carry `csrfToken` equal to the
    /// session's. An allowed request counts as use: the idle time starts again.
    package mutating func check(
        secret: String, csrfToken: String?, isWrite: Bool, now: Double, wallNow: Double
    ) -> Decision {
        let digest = SHA256.hex(secret)
        guard var session = sessions[digest] else { return .unknown }
        guard now - session.lastUsed < Defaults.idleLifetime else {
            sessions[digest] = nil
            return .expired
        }
        if isWrite {
            guard let csrfToken, ConstantTime.equals(Array(csrfToken.utf8), Array(session.csrfToken.utf8)) else {
                return .csrfRefused
            }
        }
        session.lastUsed = now
        session.lastUsedAt = wallNow
        sessions[digest] = session
        return .allowed(id: session.id, csrfToken: session.csrfToken)
    }

    /// Ends the session of the cookie `secret` (sign-out); whether there was one.
    @discardableResult
    package mutating func end(secret: String) -> Bool {
        sessions.removeValue(forKey: SHA256.hex(secret)) != nil
    }

    /// Ends the session listed as `id`; whether there was one.
    package mutating func revoke(id: String) -> Bool {
        guard let digest = sessions.first(where: { $0.value.id == id })?.key else { return false }
        sessions[digest] = nil
        return true
    }

    /// The sessions not yet expired, oldest first.
    package mutating func list(now: Double) -> [Listing] {
        prune(now: now)
        return sessions.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map {
            Listing(id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, address: $0.address)
        }
    }

    private mutating func prune(now: Double) {
        sessions = sessions.filter { now - $0.value.lastUsed < Defaults.idleLifetime }
    }
}
