import Testing

@testable import RollboardAccess

/// A reference to a machine, so its calls can sit in `#expect`.
private final class Machine {
    var sessions = ConsoleSessions()
    var count: Int { sessions.count }

    func create(secret: String, csrfToken: String, address: String, now: Double, wallNow: Double) -> String {
        sessions.create(secret: secret, csrfToken: csrfToken, address: address, now: now, wallNow: wallNow)
    }

    func check(
        secret: String, csrfToken: String?, isWrite: Bool, now: Double, wallNow: Double
    ) -> ConsoleSessions.Decision {
        sessions.check(secret: secret, csrfToken: csrfToken, isWrite: isWrite, now: now, wallNow: wallNow)
    }

    func end(secret: String) -> Bool { sessions.end(secret: secret) }
    func revoke(id: String) -> Bool { sessions.revoke(id: id) }
    func list(now: Double) -> [ConsoleSessions.Listing] { sessions.list(now: now) }
}

/// The console's sessions on a manual clock: sign-in, CSRF on writes, idle expiry, sign-out, revocation, the list.
@Suite struct ConsoleSessionsTests {
    typealias Defaults = ConsoleSessions.Defaults
    let wall = 1_800_000_000.0

    @Test("a fresh session lets reads through and keeps only the secret's digest")
    func freshSession() {
        let sessions = Machine()
        let id = sessions.create(secret: "s1", csrfToken: "c1", address: "127.0.0.1", now: 0, wallNow: wall)
        #expect(id.count == Defaults.idLength)
        #expect(!id.contains("s1"))
        #expect(sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: 1, wallNow: wall + 1)
            == .allowed(id: id, csrfToken: "c1"))
        #expect(sessions.check(secret: "s2", csrfToken: nil, isWrite: false, now: 1, wallNow: wall + 1) == .unknown)
    }

    @Test(
        "a write passes only with the session's own CSRF token",
        arguments: [
            (nil, false), ("", false), ("c", false), ("c1x", false), ("C1", false), ("c2", false), ("c1", true),
        ] as [(String?, Bool)])
    func csrfOnWrites(_ token: String?, _ passes: Bool) {
        let sessions = Machine()
        let id = sessions.create(secret: "s1", csrfToken: "c1", address: "a", now: 0, wallNow: wall)
        _ = sessions.create(secret: "s2", csrfToken: "c2", address: "a", now: 0, wallNow: wall)
        let decision = sessions.check(secret: "s1", csrfToken: token, isWrite: true, now: 1, wallNow: wall)
        #expect(decision == (passes ? .allowed(id: id, csrfToken: "c1") : .csrfRefused))
    }

    @Test(
        "a session ends after 12 hours without a request, and each request starts the idle time again",
        arguments: [
            ([], 43_199.0, true), ([], 43_200.0, false), ([40_000.0], 83_199.0, true), ([40_000.0], 83_200.0, false),
            ([20_000.0, 40_000.0], 80_000.0, true),
        ])
    func idleExpiry(_ uses: [Double], _ at: Double, _ alive: Bool) {
        #expect(Defaults.idleLifetime == 12 * 3_600)
        let sessions = Machine()
        let id = sessions.create(secret: "s1", csrfToken: "c1", address: "a", now: 0, wallNow: wall)
        for use in uses {
            #expect(sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: use, wallNow: wall + use)
                == .allowed(id: id, csrfToken: "c1"))
        }
        let decision = sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: at, wallNow: wall + at)
        #expect(decision == (alive ? .allowed(id: id, csrfToken: "c1") : .expired))
        if !alive {
            #expect(sessions.count == 0, "an expired session is gone")
            #expect(sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: at, wallNow: wall) == .unknown)
        }
    }

    @Test("sign-out and revocation end a session at once; other sessions go on")
    func endAndRevoke() {
        let sessions = Machine()
        _ = sessions.create(secret: "s1", csrfToken: "c1", address: "a", now: 0, wallNow: wall)
        let second = sessions.create(secret: "s2", csrfToken: "c2", address: "b", now: 0, wallNow: wall)
        let third = sessions.create(secret: "s3", csrfToken: "c3", address: "c", now: 0, wallNow: wall)
        #expect(sessions.end(secret: "s1"))
        #expect(!sessions.end(secret: "s1"))
        #expect(sessions.revoke(id: second))
        #expect(!sessions.revoke(id: second))
        #expect(sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: 1, wallNow: wall) == .unknown)
        #expect(sessions.check(secret: "s2", csrfToken: nil, isWrite: false, now: 1, wallNow: wall) == .unknown)
        #expect(sessions.check(secret: "s3", csrfToken: nil, isWrite: false, now: 1, wallNow: wall)
            == .allowed(id: third, csrfToken: "c3"))
    }

    @Test("the list shows id, creation, last use and address, oldest first, without expired sessions")
    func listing() {
        let sessions = Machine()
        let first = sessions.create(secret: "s1", csrfToken: "c1", address: "10.0.0.1", now: 0, wallNow: wall)
        let second = sessions.create(secret: "s2", csrfToken: "c2", address: "10.0.0.2", now: 100, wallNow: wall + 100)
        _ = sessions.check(secret: "s2", csrfToken: nil, isWrite: false, now: 200, wallNow: wall + 200)
        #expect(sessions.list(now: 300) == [
            .init(id: first, createdAt: wall, lastUsedAt: wall, address: "10.0.0.1"),
            .init(id: second, createdAt: wall + 100, lastUsedAt: wall + 200, address: "10.0.0.2"),
        ])
        #expect(sessions.list(now: Defaults.idleLifetime + 100).map(\.id) == [second])
    }

    @Test("past the most sessions kept, the least recently used one goes")
    func bounded() {
        let sessions = Machine()
        for index in 0..<Defaults.maxSessions {
            _ = sessions.create(
                secret: "s\(index)", csrfToken: "c", address: "a", now: Double(index), wallNow: wall)
        }
        _ = sessions.check(secret: "s0", csrfToken: nil, isWrite: false, now: 5_000, wallNow: wall)
        _ = sessions.create(secret: "new", csrfToken: "c", address: "a", now: 5_001, wallNow: wall)
        #expect(sessions.count == Defaults.maxSessions)
        #expect(sessions.check(secret: "s1", csrfToken: nil, isWrite: false, now: 5_002, wallNow: wall) == .unknown)
        #expect(sessions.check(secret: "s0", csrfToken: nil, isWrite: false, now: 5_002, wallNow: wall) != .unknown)
    }
}

/// Failed console sign-ins, counted per address and overall in windows (``AttemptWindows``, shared with pairing).
@Suite struct ConsoleSignInLimitTests {
    typealias Defaults = ConsoleSessions.Defaults

    @Test(
        "past the failed sign-ins of a window from one address, that address waits for the window's end; others do not",
        arguments: [
            (failures: 9, at: 30.0, wait: nil as Double?, otherWaits: false),
            (10, 30, 30, false),
            (10, 59.5, 0.5, false),
            (10, 60, nil, false),
        ])
    func perAddress(failures: Int, at now: Double, wait: Double?, otherWaits: Bool) {
        var sessions = ConsoleSessions()
        for _ in 0..<failures { sessions.signInFailed(address: "10.0.0.9", now: 0) }
        #expect(sessions.signInRetryAfter(address: "10.0.0.9", now: now) == wait)
        #expect((sessions.signInRetryAfter(address: "10.0.0.10", now: now) != nil) == otherWaits)
    }

    @Test(
        "past the failed sign-ins of a window from every address together, every address waits",
        arguments: [(Defaults.failedSignIns - 1, false), (Defaults.failedSignIns, true)])
    func overall(failures: Int, limited: Bool) {
        var sessions = ConsoleSessions()
        // Spread over addresses, none of which reaches its own limit.
        for index in 0..<failures { sessions.signInFailed(address: "10.0.\(index % 20).1", now: Double(index) / 10) }
        #expect((sessions.signInRetryAfter(address: "192.0.2.1", now: 11) != nil) == limited)
        #expect(sessions.signInRetryAfter(address: "192.0.2.1", now: Defaults.signInWindow) == nil)
    }

    @Test("the limits are the documented ones: 10 a minute from an address, 100 a minute overall")
    func documentedNumbers() {
        #expect(Defaults.failedSignInsPerAddress == 10 && Defaults.failedSignIns == 100 && Defaults.signInWindow == 60)
    }
}
