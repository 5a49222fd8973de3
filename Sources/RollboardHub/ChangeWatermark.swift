package import RollboardConfig
package import RollboardStore
import Synchronization

/// The store's sequence number up to which the directory has handed its hubs every change they show (a change to a
/// metric a hub does not show never reaches it). A hub reads it when a screen connects, before it queues the connect:
/// every change at or below it that the hub shows is then ahead of the connect on the hub's queue, so the hello's
/// `changes` says where the store stands, as on every node, not only the last change the dashboard showed.
final class ChangeWatermark: Sendable {
    private let seq: Atomic<UInt64>

    init(_ seq: UInt64) {
        self.seq = Atomic(seq)
    }

    /// The change numbered `seq` was handed to the hubs that show it (called in sequence order, from one queue).
    func passed(_ seq: UInt64) {
        if seq > self.seq.load(ordering: .relaxed) { self.seq.store(seq, ordering: .releasing) }
    }

    var value: UInt64 { seq.load(ordering: .acquiring) }
}
