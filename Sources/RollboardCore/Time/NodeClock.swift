/// The node's one clock: every service of a node is given it by the composition root (``RollboardNode/Options``),
/// so that a test can run a whole node on a manual clock. `monotonic` times frames, schedules, backoff, leases,
/// pings and deadlines; `wall` (seconds since 1970) stamps changes and runs playlists, windows and announcements.
package struct NodeClock: Sendable {
    /// Seconds that only go forward.
    package var monotonic: FrameClock
    /// Seconds since 1970, which an operator or NTP may step.
    package var wall: FrameClock

    /// The system's clocks, made once for the process.
    package static let system = NodeClock(monotonic: .monotonic(), wall: .wall())

    package init(monotonic: FrameClock, wall: FrameClock) {
        self.monotonic = monotonic
        self.wall = wall
    }
}
