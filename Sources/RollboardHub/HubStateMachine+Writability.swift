
/// Whether each screen's connection can take another message, as the driver tells it: a screen over its outbound
/// watermark is full until it drains. The state is the machine's; each tick reads it (``tickStream(_:now:)``): a full
/// screen skips the frames due meanwhile, needs a `state` once it is writable again, and is closed once it stayed
/// full for the slow-client timeout from the first frame it could not take.
extension HubStateMachine {
    /// Screen `id`'s connection is over its outbound watermark; nothing is sent at once, the next tick skips it.
    mutating func screenIsFull(_ id: Int) {
        guard sessions[id]?.isWritable == true else { return }
        sessions[id]!.isWritable = false
    }

    /// Screen `id`'s connection can take messages again; the next tick sends it a `state`, if it skipped a frame.
    mutating func screenBecameWritable(_ id: Int) {
        guard sessions[id]?.isWritable == false else { return }
        sessions[id]!.isWritable = true
    }
}
