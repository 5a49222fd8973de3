package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// The live side of one playlist without I/O or clocks: screens join and leave, operators' commands arrive, and time
/// passes (`tick(now:)`); each input returns the ``PlaylistAction``s to carry out, in order, ending with
/// `.wake(at:)` for the next moment the machine needs a tick.
///
/// The entry showing is read off the wall clock against a shared epoch (``PlaylistSchedule``), so every screen and
/// every node agrees. When the rotation moves on, every screen leaves the dashboard it showed and, once that hub
/// has sent it everything it had, joins the next entry's hub with a `{"type":"playlist",…}` greeting before that
/// hub's hello.
struct PlaylistStateMachine {
    /// One screen following the playlist.
    private struct Screen {
        /// Its session on the hub of the dashboard it shows; `nil` while it moves.
        var session: Int?
        /// Counts moves: a move whose old session ends after a newer move started is dropped.
        var generation = 0
        /// The entry it is on its way to.
        var target = 0
    }

    private(set) var configuration: PlaylistConfiguration
    private var schedule: PlaylistSchedule
    /// The entry showing, as of the last input.
    private(set) var current: Int
    private var screens: [Int: Screen] = [:]
    /// The sequence number of the last operator command applied.
    private(set) var appliedSeq: UInt64 = 0
    /// Who waits for a command to be applied: the sequence number and until when, by waiter.
    private var waiters: [Int: (seq: UInt64, until: Double)] = [:]
    /// When the entry showing ends (`nil` while held).
    private var endsAt: Double?
    /// The announcement the playlist's screens show until `until`, whichever dashboard they move to meanwhile.
    private var announcement: (text: String, until: Double)?

    init(configuration: PlaylistConfiguration, now: Double) {
        self.configuration = configuration
        self.schedule = PlaylistSchedule(durations: configuration.entries.map(\.seconds))
        (self.current, self.endsAt) = schedule.entry(at: now)
    }

    /// Whether the rotation is held.
    var isHeld: Bool { schedule.held != nil }

    /// The number of screens following the playlist.
    var screenCount: Int { screens.count }

    /// Screen `id`'s hub session, if it has one now.
    func session(of id: Int) -> Int? {
        screens[id]?.session
    }

    // MARK: Inputs

    /// The first moment: arms the timer for the end of the entry showing.
    mutating func start(now: Double) -> [PlaylistAction] {
        rotate(now: now)
    }

    /// The timer fired: the rotation moves on if the entry ended, and waits that ran out are answered.
    mutating func tick(now: Double) -> [PlaylistAction] {
        var actions: [PlaylistAction] = []
        for (waiter, wait) in waiters.sorted(by: { $0.key < $1.key }) where wait.until <= now {
            waiters[waiter] = nil
            actions.append(.answer(waiter: waiter, applied: false))
        }
        return actions + rotate(now: now)
    }

    /// Screen `id` connected: it joins the entry showing.
    mutating func connect(_ id: Int, now: Double) -> [PlaylistAction] {
        screens[id] = Screen()
        return move(id, to: current, now: now)
    }

    /// Screen `id` went away.
    mutating func disconnect(_ id: Int) -> [PlaylistAction] {
        guard let screen = screens.removeValue(forKey: id) else { return [] }
        return [.forget(screen: id, session: screen.session)]
    }

    /// The hub that screen `id` left (move number `generation`) has sent it everything: it joins the entry it is on
    /// its way to, unless a newer move started meanwhile or the playlist no longer has that entry.
    mutating func left(_ id: Int, generation: Int, now: Double) -> [PlaylistAction] {
        guard let screen = screens[id], screen.generation == generation,
            configuration.entries.indices.contains(screen.target)
        else { return [] }
        return [
            .join(screen: id, dashboard: configuration.entries[screen.target].dashboard, greeting: message(now: now))
        ]
    }

    /// Screen `id` joined its dashboard's hub as session `session`.
    mutating func joined(_ id: Int, session: Int) {
        screens[id]?.session = session
    }

    /// Applies an operator's committed command as of the moment it was committed, so every node that applies it
    /// agrees: hold stops the rotation on the entry showing then, resume starts it again from the beginning of the
    /// held entry, show shows an entry for its full seconds (while held: the entry held). An entry beyond the
    /// playlist (it was reloaded shorter meanwhile) is ignored; a command applied already (from the snapshot the
    /// playlist started with) too. Screens are told the playlist's new state.
    mutating func apply(_ command: StoredPlaylistCommand, now: Double) -> [PlaylistAction] {
        guard command.seq > appliedSeq else { return [] }
        switch command.action {
        case .hold: schedule.hold(at: command.updatedAt)
        case .resume: schedule.resume(at: command.updatedAt)
        case .show(let entry):
            if schedule.durations.indices.contains(entry) { schedule.show(entry, at: command.updatedAt) }
        }
        appliedSeq = command.seq
        var actions: [PlaylistAction] = []
        for (waiter, wait) in waiters.sorted(by: { $0.key < $1.key }) where wait.seq <= appliedSeq {
            waiters[waiter] = nil
            actions.append(.answer(waiter: waiter, applied: true))
        }
        return actions + rotate(now: now, announce: true)
    }

    /// `waiter` waits until the command numbered `seq` (or a later one) is applied, for at most `timeout` seconds.
    mutating func waitApplied(_ seq: UInt64, waiter: Int, timeout: Double, now: Double) -> [PlaylistAction] {
        if appliedSeq >= seq { return [.answer(waiter: waiter, applied: true)] }
        waiters[waiter] = (seq, now + timeout)
        return [wake()]
    }

    /// A changed configuration (a reload): the rotation starts again from the shared epoch, and every screen is
    /// moved to the entry showing now.
    mutating func reconfigure(_ configuration: PlaylistConfiguration, now: Double) -> [PlaylistAction] {
        self.configuration = configuration
        schedule = PlaylistSchedule(durations: configuration.entries.map(\.seconds))
        current = schedule.entry(at: now).index
        var actions: [PlaylistAction] = []
        for id in screens.keys.sorted() { actions += move(id, to: current, now: now) }
        return actions + rotate(now: now)
    }

    /// Every screen shows `text` full-screen for `seconds` (`0` takes an announcement down), and so does each screen
    /// that joins a dashboard meanwhile (a move, a new screen) for what is left of them.
    mutating func announce(_ text: String, seconds: Double, now: Double) -> [PlaylistAction] {
        announcement = seconds > 0 ? (text, now + seconds) : nil
        return sendToAll(ScreenMessageEncoder.announcement(text, seconds: seconds))
    }

    /// What screen `id`, which just joined a dashboard's hub, is sent after that hub's hello: the running
    /// announcement, for what is left of it.
    func afterJoining(_ id: Int, now: Double) -> [PlaylistAction] {
        guard let announcement, announcement.until > now, let session = screens[id]?.session else { return [] }
        let text = ScreenMessageEncoder.announcement(announcement.text, seconds: announcement.until - now)
        return [.send(text: text, screen: id, session: session)]
    }

    /// Every screen reloads its page.
    func reload() -> [PlaylistAction] {
        sendToAll(#"{"type":"reload"}"#)
    }

    /// Closes every screen with `code` (a playlist that a reload removed: 4404); the rotation stops.
    mutating func closeAll(code: WebSocketCloseCode, reason: String) -> [PlaylistAction] {
        var actions: [PlaylistAction] = []
        for id in screens.keys.sorted() {
            let screen = screens.removeValue(forKey: id)!
            actions.append(.close(screen: id, session: screen.session, code: code, reason: reason))
        }
        endsAt = nil
        return actions + [wake()]
    }

    // MARK: The rotation

    /// Moves every screen to the entry showing at `now` if it changed (or, with `announce`, tells them the
    /// playlist's new state where it did not), then asks to be woken when it ends.
    private mutating func rotate(now: Double, announce: Bool = false) -> [PlaylistAction] {
        let index: Int
        (index, endsAt) = schedule.entry(at: now)
        var actions: [PlaylistAction] = []
        if index != current {
            current = index
            for id in screens.keys.sorted() { actions += move(id, to: index, now: now) }
        } else if announce {
            actions += sendToAll(message(now: now))
        }
        return actions + [wake()]
    }

    /// Takes screen `id` off the dashboard it shows, on its way to entry `index`; a screen on no hub joins at once.
    private mutating func move(_ id: Int, to index: Int, now: Double) -> [PlaylistAction] {
        guard var screen = screens[id] else { return [] }
        screen.generation += 1
        screen.target = index
        let session = screen.session
        screen.session = nil
        screens[id] = screen
        guard let session else { return left(id, generation: screen.generation, now: now) }
        return [.leave(screen: id, session: session, generation: screen.generation)]
    }

    private func sendToAll(_ text: String) -> [PlaylistAction] {
        screens.keys.sorted().compactMap { id in
            screens[id]?.session.map { .send(text: text, screen: id, session: $0) }
        }
    }

    /// The earliest of the entry's end and the waits' deadlines.
    private func wake() -> PlaylistAction {
        .wake(at: (waiters.values.map(\.until) + [endsAt].compactMap { $0 }).min())
    }

    /// `{"type":"playlist","id":…,"title":…,"entries":[{"dashboard","seconds"},…],"current":K,"held":B,"endsIn":S}`.
    func message(now: Double) -> String {
        let (index, endsAt) = schedule.entry(at: now)
        let entries = configuration.entries.map {
            "{\"dashboard\":\(JSONText.quoted($0.dashboard)),\"seconds\":\(jsonNumber($0.seconds, places: 3))}"
        }
        return "{\"type\":\"playlist\",\"id\":\(JSONText.quoted(configuration.id)),"
            + "\"title\":\(JSONText.quoted(configuration.title)),\"entries\":[\(entries.joined(separator: ","))],"
            + "\"current\":\(index),\"held\":\(schedule.held != nil),"
            + "\"endsIn\":\(endsAt.map { jsonNumber($0 - now, places: 3) } ?? "null")}"
    }
}
