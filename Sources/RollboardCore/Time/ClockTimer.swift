/// A one-shot timer on a ``FrameClock``: a service's driver arms it for the time its state machine asked to be woken
/// at, and the handler runs on the driver's queue.
package protocol ClockTimer: AnyObject, Sendable {
    /// Starts the timer, disarmed; `handler` runs on the timer's queue each time it fires.
    func activate(_ handler: @escaping @Sendable () -> Void)
    /// Fires once at `time` on the clock (at once if it has passed), replacing any earlier arming; `nil` disarms.
    func arm(at time: Double?)
    /// Stops the timer for good.
    func cancel()
}
