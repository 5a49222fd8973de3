
/// A part that writes another kind's part and then more (kind 9 after kind 1, kind 14 after kind 11): its sequence
/// number and commit time are its base part's.
protocol ExtendingPart: StoredChangePart {
    associatedtype Base: StoredChangePart
    var base: Base { get set }
}

extension ExtendingPart {
    var seq: UInt64 {
        get { base.seq }
        set { base.seq = newValue }
    }

    var updatedAt: Double {
        get { base.updatedAt }
        set { base.updatedAt = newValue }
    }
}
