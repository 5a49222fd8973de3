@testable import RollboardStore

extension StoreChange {
    /// The framed size of a one-metric record with the given id.
    static func metricsRecordSize(id: String) -> Int {
        frameHeaderSize + 1 + 4 + 8 + 4 + id.utf8.count + 8 + 8 + 8 + 1
    }
}
