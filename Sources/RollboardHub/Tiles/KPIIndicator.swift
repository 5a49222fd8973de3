import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The status and change arrow of one odometer or counter, written as extra members of its STATE.
struct KPIIndicator: Sendable {
    let options: KPIOptions
    /// Writes the change the way the tile writes its number (decimals, separators), without prefix or suffix.
    let deltaFormat: NumberFormat

    /// `status` when the tile has a goal or thresholds, and `trend`, `delta`, `deltaText` and `sense` when
    /// it has an arrow and something to compare `target` with (`previous` for `delta: previous`).
    func members(target: Double, previous: Double?) -> [TileState.Member] {
        var members: [TileState.Member] = []
        if let status = options.status(of: target) { members.append(.init("status", "\"\(status.rawValue)\"")) }
        let reference: Double? =
            switch options.delta {
            case .none: nil
            case .previous: previous
            case .baseline(let baseline): baseline
            }
        guard let reference else { return members }
        let delta = target - reference
        let rounded = (delta * pow10(deltaFormat.fractionDigits)).rounded()
        return members + arrow(delta: delta, rounded: rounded, text: deltaFormat.string(for: delta))
    }

    /// The arrow's members for a change of `delta` (`rounded` as it is written, its sign decides) written `text`.
    func arrow(delta: Double, rounded: Double, text: String) -> [TileState.Member] {
        let trend = rounded > 0 ? "up" : rounded < 0 ? "down" : "flat"
        let sense = rounded == 0 ? "same" : (rounded > 0) != options.lowerIsBetter ? "better" : "worse"
        return [
            .init("trend", "\"\(trend)\""), .init("delta", jsonNumber(delta, places: 6)),
            .init("deltaText", JSONText.quoted((rounded > 0 ? "+" : "") + text)), .init("sense", "\"\(sense)\""),
        ]
    }

    func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { power, _ in power * 10 }
    }
}
