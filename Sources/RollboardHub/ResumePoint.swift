package import RollboardConfig
package import RollboardStore

/// Where a screen's view of the store stands: the store's epoch and the sequence number of the last stored change it
/// was shown. A screen that reconnects sends it (`?since=EPOCH:SEQ`) to be shown what it missed.
package struct ResumePoint: Equatable, Sendable {
    var epoch: String
    var seq: UInt64

    /// `EPOCH:SEQ`, as the page sends it; `nil` for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].count),
            parts[0].unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" }),
            let seq = UInt64(parts[1])
        else { return nil }
        self.init(epoch: String(parts[0]), seq: seq)
    }

    init(epoch: String, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }
}
