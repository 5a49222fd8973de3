/// What a tile does with a change that arrives while it is still animating.
public enum QueuePolicy: String, Hashable, Sendable, CaseIterable {
    /// Every change waits its turn and plays in order (DPScrollNumberLabel's task array).
    case fifo
    /// The running change finishes; the newest change replaces whatever waits behind it.
    case latest
    /// The running change bends, without stopping, towards the newest value (a ``Glide``).
    case retarget
}
