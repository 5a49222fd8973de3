import RollboardRedis
import Testing

@testable import RollboardRedisLog

/// Finding the primary through Sentinel, driven with scripted answers and explicit times: no Sentinel, no clock.
@Suite("Sentinel machine")
struct SentinelMachineTests {
    typealias Address = SentinelMachine.Address
    static let old = Address(host: "127.0.0.1", port: 6379)
    static let new = Address(host: "127.0.0.1", port: 6380)

    /// A machine with three Sentinels that found `old` through the first one.
    static func found() -> SentinelMachine {
        var machine = SentinelMachine(sentinelCount: 3)
        _ = machine.discover(now: 0)
        _ = machine.answered(round: 1, answer: .primary(old), now: 0.01)
        _ = machine.roleChecked(round: 1, role: .master, now: 0.02)
        return machine
    }

    @Test("the first Sentinel names the primary, which answers ROLE master: the link connects there")
    func firstRound() {
        var machine = SentinelMachine(sentinelCount: 3)
        #expect(machine.discover(now: 10) == [.ask(sentinel: 0, round: 1)])
        #expect(machine.answered(round: 1, answer: .primary(Self.old), now: 10.01) == [.checkRole(Self.old, round: 1)])
        #expect(machine.roleChecked(round: 1, role: .master, now: 10.25) == [.use(Self.old, seconds: 0.25, changed: false)])
        #expect(machine.primary == Self.old)
    }

    @Test(
        "a Sentinel that does not answer, does not know the master, or names a server that is not the primary passes the question to the next",
        arguments: [
            (SentinelMachine.Answer.failed("connect failed: ECONNREFUSED"), nil as SentinelMachine.Role?),
            (.unknown, nil),
            (.primary(old), .other("slave")),
            (.primary(old), .failed("timed out")),
        ])
    func nextSentinel(answer: SentinelMachine.Answer, role: SentinelMachine.Role?) {
        var machine = SentinelMachine(sentinelCount: 3)
        _ = machine.discover(now: 0)
        var actions = machine.answered(round: 1, answer: answer, now: 0.1)
        if let role { actions = machine.roleChecked(round: 1, role: role, now: 0.2) }
        #expect(actions == [.ask(sentinel: 1, round: 1)])
        #expect(machine.answered(round: 1, answer: .primary(Self.new), now: 0.3) == [.checkRole(Self.new, round: 1)])
        #expect(machine.roleChecked(round: 1, role: .master, now: 0.5) == [.use(Self.new, seconds: 0.5, changed: false)])
        #expect(machine.discover(now: 9) == [.ask(sentinel: 1, round: 2)], "the Sentinel that answered is asked first")
    }

    @Test("when no Sentinel names a primary that answers as one, the round fails with every reason, and the next round starts over")
    func roundFails() {
        var machine = Self.found()
        #expect(machine.discover(now: 5) == [.ask(sentinel: 0, round: 2)])
        #expect(machine.answered(round: 2, answer: .failed("timed out"), now: 5.5) == [.ask(sentinel: 1, round: 2)])
        #expect(machine.answered(round: 2, answer: .primary(Self.old), now: 5.6) == [.checkRole(Self.old, round: 2)])
        #expect(machine.roleChecked(round: 2, role: .other("slave"), now: 5.7) == [.ask(sentinel: 2, round: 2)])
        let failed = machine.answered(round: 2, answer: .unknown, now: 5.8)
        #expect(failed == [.fail(
            "no Sentinel named a primary: Sentinel 1: timed out; Sentinel 2 named 127.0.0.1:6379, which answers ROLE "
                + "slave; Sentinel 3 does not monitor this master")])
        #expect(machine.primary == Self.old, "the link keeps no new address")
        #expect(machine.discover(now: 7) == [.ask(sentinel: 0, round: 3)])
    }

    @Test("after a failover the new primary is used and reported as a change, with the time the round took")
    func failover() {
        var machine = Self.found()
        _ = machine.discover(now: 100)
        _ = machine.answered(round: 2, answer: .primary(Self.new), now: 100.1)
        #expect(machine.roleChecked(round: 2, role: .master, now: 100.5) == [.use(Self.new, seconds: 0.5, changed: true)])
        #expect(machine.primary == Self.new)
        _ = machine.discover(now: 200)
        _ = machine.answered(round: 3, answer: .primary(Self.new), now: 200)
        #expect(machine.roleChecked(round: 3, role: .master, now: 200) == [.use(Self.new, seconds: 0, changed: false)])
    }

    @Test(
        "an answer from an older round, or one that comes twice, changes nothing",
        arguments: [1, 3])
    func staleAnswers(round: Int) {
        var machine = SentinelMachine(sentinelCount: 2)
        _ = machine.discover(now: 0)
        _ = machine.discover(now: 1)  // a newer round replaced the first
        let before = machine
        #expect(machine.answered(round: round, answer: .primary(Self.new), now: 2) == [])
        #expect(machine.roleChecked(round: round, role: .master, now: 2) == [])
        #expect(machine == before)
        _ = machine.answered(round: 2, answer: .primary(Self.new), now: 2)
        #expect(machine.answered(round: 2, answer: .primary(Self.old), now: 2) == [], "already checking a server")
        _ = machine.roleChecked(round: 2, role: .master, now: 2)
        #expect(machine.roleChecked(round: 2, role: .master, now: 3) == [], "the round is over")
    }

    @Test("a single Sentinel that fails ends the round at once", arguments: [
        SentinelMachine.Answer.unknown, .failed("authentication failed: AUTH was refused"),
    ])
    func singleSentinel(answer: SentinelMachine.Answer) {
        var machine = SentinelMachine(sentinelCount: 1)
        _ = machine.discover(now: 0)
        let actions = machine.answered(round: 1, answer: answer, now: 0)
        guard case .fail(let reason)? = actions.first else {
            Issue.record("expected the round to fail, got \(actions)")
            return
        }
        #expect(actions.count == 1 && reason.hasPrefix("no Sentinel named a primary: Sentinel 1"))
    }

    @Test(
        "a write refused with READONLY, or a ROLE check that is not master, drops the connection to find the primary again",
        arguments: [
            (RedisReply.error("READONLY You can't write against a read only replica."), false, true),
            (.error("READONLY You can't write against a read only replica."), true, true),
            (.array([.bulk(Array("slave".utf8)), .bulk(Array("127.0.0.1".utf8)), .integer(6380)]), true, true),
            (.array([.bulk(Array("master".utf8)), .integer(1234), .array([])]), true, false),
            (.array([.bulk(Array("slave".utf8))]), false, false),
            (.status("PONG"), true, false),
            (.error("ERR unknown command"), false, false),
            (.error("NOSCRIPT No matching script"), true, false),
        ])
    func demotion(reply: RedisReply, askedRole: Bool, drops: Bool) {
        #expect((SentinelMachine.demotion(in: reply, askedRole: askedRole) != nil) == drops)
    }

    static func replica(_ port: Int, flags: String, link: String) -> RedisReply {
        .array(["name", "127.0.0.1:\(port)", "ip", "127.0.0.1", "port", "\(port)", "flags", flags,
            "master-link-status", link].map { .bulk(Array($0.utf8)) })
    }

    @Test(
        "the reader follows the first replica Sentinel sees up and linked to the primary",
        arguments: [
            ([replica(6381, flags: "slave", link: "ok")], 6381 as Int?),
            ([replica(6381, flags: "s_down,slave,disconnected", link: "err"), replica(6382, flags: "slave", link: "ok")], 6382),
            ([replica(6381, flags: "slave", link: "err")], nil),
            ([], nil),
        ])
    func readableReplica(replicas: [RedisReply], port: Int?) {
        #expect(SentinelMachine.readableReplica(in: .array(replicas)) == port.map { Address(host: "127.0.0.1", port: $0) })
    }
}
