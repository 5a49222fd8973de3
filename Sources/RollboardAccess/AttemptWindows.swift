/// Attempts counted per client address and overall in fixed windows of `window` seconds, as a value a state machine
/// keeps and feeds `now`: once `perAddress` attempts from one address (or `overall` from all, when set) were counted in
/// a window, ``retryAfter(_:now:)`` refuses until that window ends. Failed pairings, the codes a TV asks for and failed
/// console sign-ins are limited this way.
package struct AttemptWindows: Sendable {
    private struct Window: Sendable {
        var start: Double
        var count: Int
    }

    /// Attempts one address may make in a window, and all of them together (`nil`: no overall limit).
    package let perAddress: Int
    package let overall: Int?
    /// Seconds of a window.
    package let window: Double
    /// Addresses whose windows are remembered at once; past it, those whose window ended go.
    package let trackedAddresses: Int
    private var byAddress: [String: Window] = [:]
    private var all = Window(start: -.infinity, count: 0)

    package init(perAddress: Int, overall: Int?, window: Double, trackedAddresses: Int) {
        (self.perAddress, self.overall, self.window, self.trackedAddresses) =
            (perAddress, overall, window, trackedAddresses)
    }

    /// Seconds until `address` may try again, when it (or every address together) reached its limit in the window
    /// running at `now`; `nil` when it may try now.
    package func retryAfter(_ address: String, now: Double) -> Double? {
        [
            wait(byAddress[address], limit: perAddress, now),
            overall.flatMap { wait(all, limit: $0, now) },
        ].compactMap { $0 }.max()
    }

    /// Counts one attempt from `address` at `now`.
    package mutating func count(_ address: String, now: Double) {
        var counted = byAddress[address] ?? Window(start: now, count: 0)
        count(&counted, now)
        byAddress[address] = counted
        if overall != nil { count(&all, now) }
        if byAddress.count > trackedAddresses {
            byAddress = byAddress.filter { now - $0.value.start < window }
        }
    }

    private func wait(_ counted: Window?, limit: Int, _ now: Double) -> Double? {
        guard let counted, now - counted.start < window, counted.count >= limit else { return nil }
        return counted.start + window - now
    }

    private func count(_ counted: inout Window, _ now: Double) {
        if now - counted.start >= window { counted = Window(start: now, count: 0) }
        counted.count += 1
    }
}
