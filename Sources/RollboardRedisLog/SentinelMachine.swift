import RollboardRedis

/// Finding the Redis primary through Sentinel, without I/O or clocks: before each opening or reconnection of the link
/// the Sentinels are asked in turn, starting with the one that answered last, for the primary's address
/// (`SENTINEL get-master-addr-by-name`), and the server there must answer `ROLE` as `master` before the link connects
/// to it. A Sentinel that does not answer or does not know the name, or that names a server which is not (or no
/// longer) the primary, passes the question to the next one; once every Sentinel was asked in a round, the round
/// fails and the link backs off (``RedisLinkMachine``) and asks again. So a stale primary that came back as a replica
/// is never written to, and a failover is followed on the next reconnection.
///
/// Each input takes `now` (monotonic seconds) and returns the ``Action``s the driver carries out; a round counts
/// questions, so an answer from an older round changes nothing.
struct SentinelMachine: Equatable {
    struct Address: Hashable, Sendable, CustomStringConvertible {
        var host: String
        var port: Int
        var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// What a Sentinel said about the primary.
    enum Answer: Equatable {
        case primary(Address)
        /// A null reply: this Sentinel monitors no master of that name.
        case unknown
        /// No answer within the timeout, a refused connection or login, or an error reply.
        case failed(String)
    }

    /// What the named server said to `ROLE`.
    enum Role: Equatable {
        case master
        /// `slave` (a replica: a failover is under way or the Sentinel's view is stale), `sentinel`, …
        case other(String)
        case failed(String)
    }

    enum Action: Equatable {
        /// Ask Sentinel number `sentinel` for the primary, then report ``answered(round:answer:now:)``.
        case ask(sentinel: Int, round: Int)
        /// Ask the server at the address for its `ROLE`, then report ``roleChecked(round:role:now:)``.
        case checkRole(Address, round: Int)
        /// Connect the link to this primary; the round took `seconds`, and `changed` says the primary is not the one
        /// the link used before (a failover happened).
        case use(Address, seconds: Double, changed: Bool)
        /// No Sentinel named a primary that answers as one: the link's opening or reconnection fails with this reason.
        case fail(String)
    }

    let sentinelCount: Int
    /// The Sentinel asked first in the next round: the one that named the primary last.
    private(set) var preferred = 0
    private(set) var round = 0
    /// The Sentinel asked now, and the address it named once it answered; `nil`: no round under way.
    private(set) var asking: Int?
    private(set) var named: Address?
    private(set) var askedThisRound = 0
    private(set) var startedAt = 0.0
    private(set) var problems: [String] = []
    /// The primary the link connects to: the last one found.
    private(set) var primary: Address?

    init(sentinelCount: Int) {
        precondition(sentinelCount > 0, "the settings list at least one Sentinel")
        self.sentinelCount = sentinelCount
    }

    /// A round starts (a new one replaces one under way): the preferred Sentinel is asked first.
    mutating func discover(now: Double) -> [Action] {
        round += 1
        asking = preferred
        named = nil
        askedThisRound = 1
        startedAt = now
        problems = []
        return [.ask(sentinel: preferred, round: round)]
    }

    /// The Sentinel asked in `round` answered: check the server it named, or ask the next Sentinel.
    mutating func answered(round answered: Int, answer: Answer, now: Double) -> [Action] {
        guard answered == round, let sentinel = asking, named == nil else { return [] }
        switch answer {
        case .primary(let address):
            named = address
            return [.checkRole(address, round: round)]
        case .unknown:
            return next(problem: "Sentinel \(sentinel + 1) does not monitor this master")
        case .failed(let reason):
            return next(problem: "Sentinel \(sentinel + 1): \(reason)")
        }
    }

    /// The server named in `round` answered `ROLE`: use it if it is the primary, otherwise ask the next Sentinel.
    mutating func roleChecked(round checked: Int, role: Role, now: Double) -> [Action] {
        guard checked == round, let sentinel = asking, let address = named else { return [] }
        switch role {
        case .master:
            preferred = sentinel
            asking = nil
            let changed = primary != nil && primary != address
            primary = address
            return [.use(address, seconds: now - startedAt, changed: changed)]
        case .other(let role):
            return next(problem: "Sentinel \(sentinel + 1) named \(address), which answers ROLE \(role)")
        case .failed(let reason):
            return next(problem: "Sentinel \(sentinel + 1) named \(address): \(reason)")
        }
    }

    /// Why the link must drop its connection and find the primary again, given a reply on it: a write refused with
    /// `-READONLY`, or (with Sentinel, the once-a-second check) `ROLE` answering anything but `master`: the server is
    /// no longer the primary. `nil`: the reply says nothing about that.
    static func demotion(in reply: RedisReply, askedRole: Bool) -> String? {
        switch reply {
        case .error(let message) where message.hasPrefix("READONLY"):
            return "Redis refused a write as a replica (\(message))"
        case .array(let parts) where askedRole && parts.first?.string != "master":
            return "Redis answers ROLE \(parts.first?.string ?? "?"), not master"
        case .status, .error, .integer, .bulk, .null, .array:
            return nil
        }
    }

    /// The first replica in a `SENTINEL replicas` reply that Sentinel sees up and linked to the primary (flags exactly
    /// `slave`, `master-link-status` `ok`); `nil` if none.
    static func readableReplica(in reply: RedisReply) -> Address? {
        guard case .array(let replicas) = reply else { return nil }
        for case .array(let fields) in replicas {
            var values: [String: String] = [:]
            for index in stride(from: 0, to: fields.count - 1, by: 2) {
                if let key = fields[index].string, let value = fields[index + 1].string { values[key] = value }
            }
            if values["flags"] == "slave", values["master-link-status"] == "ok", let host = values["ip"],
                let port = values["port"].flatMap({ Int($0) })
            {
                return Address(host: host, port: port)
            }
        }
        return nil
    }

    /// Asks the Sentinel after the current one, or fails the round once each was asked.
    private mutating func next(problem: String) -> [Action] {
        problems.append(problem)
        guard let current = asking, askedThisRound < sentinelCount else {
            asking = nil
            return [.fail("no Sentinel named a primary: " + problems.joined(separator: "; "))]
        }
        let sentinel = (current + 1) % sentinelCount
        asking = sentinel
        named = nil
        askedThisRound += 1
        return [.ask(sentinel: sentinel, round: round)]
    }
}
