import Testing

@testable import RollboardAccess

/// A reference to a machine, so its calls can sit in `#expect`.
private final class Machine {
    var codes = PairingCodes()
    var count: Int { codes.count }

    func issue(code: String, pollToken: String, address: String, now: Double) -> PairingCodes.IssueDecision {
        codes.issue(code: code, pollToken: pollToken, address: address, now: now)
    }

    func poll(_ token: String, now: Double) -> PairingCodes.PollAnswer { codes.poll(token, now: now) }

    func claim(_ typed: String, address: String, now: Double) -> PairingCodes.ClaimDecision {
        codes.claim(typed, address: address, now: now)
    }

    func complete(_ code: String, with pairing: PairingCodes.Pairing, now: Double) -> Bool {
        codes.complete(code, with: pairing, now: now)
    }

    func release(_ code: String) { codes.release(code) }

    func issue(code: String, pollToken: String, secret: String, now: Double) -> PairingCodes.IssueDecision {
        codes.issue(code: code, pollToken: pollToken, secret: secret, address: "tv", now: now)
    }

    func secret(of token: String) -> String? { codes.secret(of: token) }

    func handOver(_ token: String, keyID: String, url: String, now: Double) -> PairingCodes.Pairing? {
        codes.handOver(token, keyID: keyID, url: url, now: now)
    }

    func withdraw(_ code: String) { codes.withdraw(code) }

    func countFailedClaim(address: String, now: Double) { codes.countFailedClaim(address: address, now: now) }

    func admitClaim(address: String, now: Double) -> Double? { codes.admitClaim(address: address, now: now) }
}

/// The pairing codes' state machine on a manual clock: codes, expiry, single use, and the guessing limits.
@Suite struct PairingCodesTests {
    typealias Defaults = PairingCodes.Defaults
    let pairing = PairingCodes.Pairing(keyID: "k1", secret: "rbv_s", url: "/d/demo?name=TV&key=rbv_s")

    @Test("a code is six characters of the alphabet without look-alikes, every byte value mapped evenly")
    func codeAlphabet() throws {
        #expect(Defaults.alphabet.count == 25)
        for lookAlike in "0O1IL5S2Z8B" { #expect(!Defaults.alphabet.contains(lookAlike)) }
        let code = try #require(PairingCodes.code(from: [0, 1, 24, 25, 49, 249]))
        #expect(code == "34Y3YY")
        #expect(PairingCodes.code(from: [250, 255, 0, 0, 0, 0, 0]) == nil, "bytes past 249 are skipped")
        #expect(PairingCodes.code(from: [250, 0, 0, 0, 0, 0, 0]) == "333333")
    }

    @Test(
        "a code typed in lower case, with spaces or a dash, is the same code",
        arguments: ["acd efg", "ACD-EFG", "acdefg"])
    func typedCode(_ typed: String) {
        #expect(PairingCodes.normalized(typed) == "ACDEFG")
    }

    @Test("a TV polls, an operator claims its code, and the TV gets its pairing once")
    func pairOnce() {
        let codes = Machine()
        let issued = codes.issue(code: "ACDEFG", pollToken: "p", address: "tv", now: 0)
        #expect(issued == .issued(expiresAt: Defaults.lifetime))
        #expect(codes.poll("p", now: 1) == .waiting(code: "ACDEFG", expiresAt: Defaults.lifetime))
        #expect(codes.claim("acdefg", address: "op", now: 2) == .claimed(code: "ACDEFG"))
        #expect(codes.claim("ACDEFG", address: "op", now: 3) == .unknown, "a claimed code is used")
        #expect(codes.poll("p", now: 4) == .waiting(code: "ACDEFG", expiresAt: Defaults.lifetime))
        #expect(codes.complete("ACDEFG", with: pairing, now: 5))
        #expect(codes.poll("p", now: 6) == .paired(pairing))
        #expect(codes.poll("p", now: 7) == .unknown, "handed over once")
        #expect(codes.claim("ACDEFG", address: "op", now: 8) == .unknown, "single-use")
        #expect(codes.count == 0)
    }

    @Test("a code expires after its lifetime: neither claimed nor polled")
    func expiry() {
        let codes = Machine()
        _ = codes.issue(code: "ACDEFG", pollToken: "p", address: "tv", now: 100)
        #expect(codes.poll("p", now: 100 + Defaults.lifetime - 0.001) != .unknown)
        #expect(codes.poll("p", now: 100 + Defaults.lifetime) == .unknown)
        #expect(codes.claim("ACDEFG", address: "op", now: 100 + Defaults.lifetime) == .unknown)
        #expect(codes.count == 0)
    }

    @Test("a code whose key could not be made waits again; one that expired while paired is not completed")
    func releaseAndLateCompletion() {
        let codes = Machine()
        _ = codes.issue(code: "ACDEFG", pollToken: "p", address: "tv", now: 0)
        _ = codes.claim("ACDEFG", address: "op", now: 1)
        codes.release("ACDEFG")
        #expect(codes.claim("ACDEFG", address: "op", now: 2) == .claimed(code: "ACDEFG"))
        #expect(!codes.complete("ACDEFG", with: pairing, now: Defaults.lifetime + 1))
    }

    @Test("a drawn code or poll token already pending is refused, to be drawn again")
    func collision() {
        let codes = Machine()
        _ = codes.issue(code: "ACDEFG", pollToken: "p", address: "tv", now: 0)
        #expect(codes.issue(code: "ACDEFG", pollToken: "q", address: "tv2", now: 0) == .taken)
        #expect(codes.issue(code: "ACDEFH", pollToken: "p", address: "tv2", now: 0) == .taken)
    }

    @Test("failed claims past the per-address limit are refused until the window ends, even with the right code")
    func perAddressLimit() {
        let codes = Machine()
        _ = codes.issue(code: "ACDEFG", pollToken: "p", address: "tv", now: 0)
        for attempt in 0..<Defaults.failedClaimsPerAddress {
            #expect(codes.claim("WRONG\(attempt)", address: "guesser", now: 10) == .unknown)
        }
        #expect(codes.claim("ACDEFG", address: "guesser", now: 20) == .limited(retryAfter: Defaults.window - 10))
        #expect(codes.claim("ACDEFG", address: "operator", now: 20) == .claimed(code: "ACDEFG"), "others are not held")
        #expect(codes.claim("WRONG", address: "guesser", now: 10 + Defaults.window) == .unknown, "a new window")
    }

    @Test("failed claims past the overall limit are refused from every address")
    func overallLimit() {
        let codes = Machine()
        for attempt in 0..<Defaults.failedClaims {
            #expect(codes.claim("WRONG", address: "a\(attempt)", now: 0) == .unknown)
        }
        #expect(codes.claim("WRONG", address: "fresh", now: 1) == .limited(retryAfter: Defaults.window - 1))
    }

    @Test("one address asks for at most its share of codes per window; at most maxPending codes are pending")
    func issueLimits() {
        let codes = Machine()
        for index in 0..<Defaults.codesPerAddress {
            #expect(codes.issue(code: "C\(index)", pollToken: "p\(index)", address: "tv", now: 0) != .taken)
        }
        let limited = codes.issue(code: "X", pollToken: "x", address: "tv", now: 30)
        #expect(limited == .limited(retryAfter: Defaults.window - 30))
        let full = Machine()
        for index in 0..<Defaults.maxPending {
            _ = full.issue(code: "C\(index)", pollToken: "p\(index)", address: "a\(index)", now: 0)
        }
        #expect(full.issue(code: "X", pollToken: "x", address: "new", now: 1) == .full)
        let afterExpiry = full.issue(code: "X", pollToken: "x", address: "new", now: Defaults.lifetime)
        #expect(afterExpiry == .issued(expiresAt: 2 * Defaults.lifetime), "expired codes make room")
    }

    @Test("with Redis, a code keeps its TV's secret, is not claimed on the node, and its pairing is handed over once")
    func sharedCode() {
        let codes = Machine()
        #expect(
            codes.issue(code: "ACDEFG", pollToken: "p", secret: "rbv_s", now: 0)
                == .issued(expiresAt: Defaults.lifetime))
        #expect(codes.secret(of: "p") == "rbv_s")
        #expect(codes.poll("p", now: 1) == .waiting(code: "ACDEFG", expiresAt: Defaults.lifetime))
        #expect(codes.claim("ACDEFG", address: "op", now: 1) == .unknown, "claimed in Redis, not here")
        #expect(codes.handOver("p", keyID: "k1", url: pairing.url, now: 2) == pairing)
        #expect(codes.handOver("p", keyID: "k1", url: pairing.url, now: 3) == nil, "handed over once")
        #expect(codes.poll("p", now: 3) == .unknown && codes.secret(of: "p") == nil)
        #expect(codes.count == 0)
    }

    @Test("a code withdrawn (another node offers it) is forgotten; an expired one is not handed over")
    func withdrawnAndExpired() {
        let codes = Machine()
        _ = codes.issue(code: "ACDEFG", pollToken: "p", secret: "rbv_s", now: 0)
        codes.withdraw("ACDEFG")
        #expect(codes.poll("p", now: 1) == .unknown && codes.count == 0)
        _ = codes.issue(code: "ACDEFG", pollToken: "q", secret: "rbv_s", now: 10)
        #expect(codes.handOver("q", keyID: "k1", url: pairing.url, now: 10 + Defaults.lifetime) == nil)
        #expect(codes.secret(of: "q") == nil)
    }

    @Test("failed claims counted from Redis's answers hold back that address like local ones, and only it")
    func countedFailures() {
        let codes = Machine()
        for _ in 0..<Defaults.failedClaimsPerAddress {
            #expect(codes.admitClaim(address: "op", now: 0) == nil)
            codes.countFailedClaim(address: "op", now: 0)
        }
        #expect(codes.admitClaim(address: "op", now: 1) == Defaults.window - 1)
        #expect(codes.admitClaim(address: "other", now: 1) == nil)
        #expect(codes.admitClaim(address: "op", now: Defaults.window) == nil, "a new window")
    }

    @Test(
        "only six characters of the alphabet can be a code",
        arguments: [("ACDEFG", true), ("ACDEF", false), ("ACDEF0", false), ("ACDEFGH", false), ("", false)])
    func wellFormed(code: String, expected: Bool) {
        #expect(PairingCodes.isWellFormed(code) == expected)
    }
}
