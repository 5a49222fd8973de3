package import RollboardConfig
package import RollboardHub

/// Counters of the producer API since start (for `GET /metrics`).
public struct ProducerAPIStatistics: Sendable, Equatable {
    /// Writes answered 2xx.
    public var acceptedWrites = 0
    /// Requests answered 4xx or 5xx, by status code.
    public var refused: [Int: Int] = [:]

    mutating func count(_ method: String, _ status: Int) {
        if status >= 400 {
            refused[status, default: 0] += 1
        } else if method == "POST" {
            acceptedWrites += 1
        }
    }
}
