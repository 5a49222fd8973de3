/// The pairing codes a TV shows on `/tv` until an operator pairs it, as a state machine: every call takes `now`
/// (seconds on the node's monotonic clock) and answers with a decision; a thin driver (the API's pairings handler)
/// draws the random codes, creates the viewer key and keeps the machine behind a lock.
///
/// A code lives `Defaults.lifetime` seconds and is single-use; at most `Defaults.maxPending` wait on a node at once.
/// Without Redis it is claimed on this node (``claim(_:address:now:)``). With Redis the node keeps only its own TVs'
/// codes, each with the secret drawn for its TV (``issue(code:pollToken:secret:address:now:)``), while the code itself
/// is claimed in Redis through any node; the poll learns the outcome there and ``handOver(_:keyID:url:now:)`` gives it
/// to the TV. Failed claims (an unknown, expired or used code) are counted per client address and overall, by the
/// node they reach, in windows of `Defaults.window` seconds; past `Defaults.failedClaimsPerAddress` or
/// `Defaults.failedClaims` every claim is refused until the window ends.
package struct PairingCodes: Sendable {
    package enum Defaults {
        /// The characters of a code: no look-alikes (no 0 O 1 I L 5 S 2 Z 8 B).
        package static let alphabet = Array("34679ACDEFGHJKMNPQRTUVWXY")
        package static let codeLength = 6
        /// Seconds a code is good for: 10 minutes.
        package static let lifetime = 600.0
        /// Codes pending at once on a node.
        package static let maxPending = 1_000
        /// Seconds of a rate window.
        package static let window = 60.0
        /// Failed claims per client address and window.
        package static let failedClaimsPerAddress = 10
        /// Failed claims over all addresses per window.
        package static let failedClaims = 100
        /// Codes one client address may ask for per window.
        package static let codesPerAddress = 10
        /// Client addresses whose windows are remembered at once; past it, the ones whose window ended go.
        package static let trackedAddresses = 10_000
    }

    /// Where a paired TV goes and the secret it opens it with, handed to the TV once.
    package struct Pairing: Sendable, Equatable {
        package var keyID: String
        package var secret: String
        /// The address of its dashboard or playlist page, with its name, theme, kiosk and key.
        package var url: String

        package init(keyID: String, secret: String, url: String) {
            self.keyID = keyID
            self.secret = secret
            self.url = url
        }
    }

    private enum State: Equatable {
        case waiting
        /// An operator claimed it; the viewer key is being made.
        case claimed
        case paired(Pairing)
    }

    private struct Pending {
        var code: String
        var pollToken: String
        var expiresAt: Double
        var state: State
        /// With Redis, the secret drawn for the TV when its code was issued (only this node ever holds it).
        var secret: String?
    }

    /// Per code.
    private var pending: [String: Pending] = [:]
    /// Per poll token, its code.
    private var codes: [String: String] = [:]
    private var failures = AttemptWindows(
        perAddress: Defaults.failedClaimsPerAddress, overall: Defaults.failedClaims, window: Defaults.window,
        trackedAddresses: Defaults.trackedAddresses)
    private var issued = AttemptWindows(
        perAddress: Defaults.codesPerAddress, overall: nil, window: Defaults.window,
        trackedAddresses: Defaults.trackedAddresses)

    package init() {}

    /// How many codes are pending.
    package var count: Int { pending.count }

    /// The code `random` spells: one character of ``Defaults/alphabet`` per byte, bytes past the last whole multiple
    /// of its size skipped (so every character is as likely); `nil` when too few bytes are left.
    package static func code(from random: [UInt8]) -> String? {
        let size = Defaults.alphabet.count
        let usable = 256 - 256 % size
        let characters = random.filter { Int($0) < usable }.prefix(Defaults.codeLength)
            .map { Defaults.alphabet[Int($0) % size] }
        return characters.count == Defaults.codeLength ? String(characters) : nil
    }

    /// What a code as typed (any case, spaces or dashes between) is written as.
    package static func normalized(_ typed: String) -> String {
        String(typed.uppercased().filter { $0 != " " && $0 != "-" })
    }

    package enum IssueDecision: Equatable {
        case issued(expiresAt: Double)
        /// The code is already pending: draw another.
        case taken
        case limited(retryAfter: Double)
        /// ``Defaults/maxPending`` codes are pending.
        case full
    }

    /// A TV at `address` asks for a code: `code`, `pollToken` and (with Redis) its TV's `secret` are freshly drawn by
    /// the driver.
    package mutating func issue(
        code: String, pollToken: String, secret: String? = nil, address: String, now: Double
    ) -> IssueDecision {
        dropExpired(now)
        if let wait = issued.retryAfter(address, now: now) { return .limited(retryAfter: wait) }
        guard pending[code] == nil, codes[pollToken] == nil else { return .taken }
        guard pending.count < Defaults.maxPending else { return .full }
        issued.count(address, now: now)
        let expiresAt = now + Defaults.lifetime
        pending[code] = Pending(
            code: code, pollToken: pollToken, expiresAt: expiresAt, state: .waiting, secret: secret)
        codes[pollToken] = code
        return .issued(expiresAt: expiresAt)
    }

    package enum PollAnswer: Equatable {
        case waiting(code: String, expiresAt: Double)
        /// Paired: the pairing is handed over this once, and the code is gone.
        case paired(Pairing)
        /// No such poll token, or its code expired or was handed over: the TV asks for a new code.
        case unknown
    }

    /// The TV holding `pollToken` asks whether it was paired.
    package mutating func poll(_ pollToken: String, now: Double) -> PollAnswer {
        dropExpired(now)
        guard let code = codes[pollToken], let entry = pending[code] else { return .unknown }
        guard case .paired(let pairing) = entry.state else { return .waiting(code: code, expiresAt: entry.expiresAt) }
        pending[code] = nil
        codes[pollToken] = nil
        return .paired(pairing)
    }

    package enum ClaimDecision: Equatable {
        /// The code is the driver's to complete or release.
        case claimed(code: String)
        /// Unknown, expired or used: counted as a failed claim.
        case unknown
        case limited(retryAfter: Double)
    }

    /// An operator, from `address`, claims the code `typed`.
    package mutating func claim(_ typed: String, address: String, now: Double) -> ClaimDecision {
        dropExpired(now)
        if let limit = admitClaim(address: address, now: now) { return .limited(retryAfter: limit) }
        let code = Self.normalized(typed)
        guard var entry = pending[code], entry.state == .waiting, entry.secret == nil else {
            countFailedClaim(address: address, now: now)
            return .unknown
        }
        entry.state = .claimed
        pending[code] = entry
        return .claimed(code: code)
    }

    /// Seconds until a claim from `address` is taken again, if failed claims reached a limit; `nil`: go ahead.
    package func admitClaim(address: String, now: Double) -> Double? {
        failures.retryAfter(address, now: now)
    }

    /// A claim from `address` found no code (here, or in Redis).
    package mutating func countFailedClaim(address: String, now: Double) {
        failures.count(address, now: now)
    }

    /// Whether `code` could be a code at all (its length, its alphabet).
    package static func isWellFormed(_ code: String) -> Bool {
        code.count == Defaults.codeLength && code.allSatisfy { Defaults.alphabet.contains($0) }
    }

    /// The secret drawn for the TV holding `pollToken` (with Redis), while its code waits.
    package func secret(of pollToken: String) -> String? {
        codes[pollToken].flatMap { pending[$0]?.secret }
    }

    /// The code `code` will not be offered after all (Redis has it from another node, or did not answer): forgotten.
    package mutating func withdraw(_ code: String) {
        guard let entry = pending.removeValue(forKey: code) else { return }
        codes[entry.pollToken] = nil
    }

    /// With Redis: the code of `pollToken` was paired (through any node) to key `keyID`, whose page with its key is
    /// `url`: the pairing, handed over this once (the code is gone); `nil` when the code expired or was handed over.
    package mutating func handOver(_ pollToken: String, keyID: String, url: String, now: Double) -> Pairing? {
        dropExpired(now)
        guard let code = codes[pollToken], let entry = pending[code], entry.state == .waiting,
            let secret = entry.secret
        else { return nil }
        pending[code] = nil
        codes[pollToken] = nil
        return Pairing(keyID: keyID, secret: secret, url: url)
    }

    /// The viewer key of claimed `code` exists: its TV gets `pairing` when it next polls (if the code expired
    /// meanwhile, the TV has asked for another and the key opens nothing until revoked; answers `false`).
    @discardableResult
    package mutating func complete(_ code: String, with pairing: Pairing, now: Double) -> Bool {
        dropExpired(now)
        guard var entry = pending[code], entry.state == .claimed else { return false }
        entry.state = .paired(pairing)
        // Long enough for the TV's next poll, even with a moment left of the code's life.
        entry.expiresAt = Swift.max(entry.expiresAt, now + Defaults.window)
        pending[code] = entry
        return true
    }

    /// The viewer key of claimed `code` could not be made: the code waits again.
    package mutating func release(_ code: String) {
        guard var entry = pending[code], entry.state == .claimed else { return }
        entry.state = .waiting
        pending[code] = entry
    }

    private mutating func dropExpired(_ now: Double) {
        for (code, entry) in pending where entry.expiresAt <= now {
            pending[code] = nil
            codes[entry.pollToken] = nil
        }
    }
}
