import Foundation
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

extension KPIIndicator {
    /// The status, and the arrow of a window's `target` against `compared`, the window's number at the same moment of
    /// the period `comparison` names: the change in percent (`"+12 %"`; written like the tile's number when `compared`
    /// is 0) and `versus`, what it is compared with (`"this time yesterday"`). No arrow without a compared number.
    func members(target: Double, compared: Double?, versus comparison: MetricWindow.Comparison) -> [TileState.Member] {
        var members = members(target: target, previous: nil)
        guard let compared else { return members }
        let delta = target - compared
        if compared == 0 {
            let rounded = (delta * pow10(deltaFormat.fractionDigits)).rounded()
            members += arrow(delta: delta, rounded: rounded, text: deltaFormat.string(for: delta))
        } else {
            let percent = delta / abs(compared) * 100
            let rounded = percent.rounded()
            let text = (rounded < 0 ? NumberFormat.minus : "") + String(format: "%.0f", abs(rounded)) + " %"
            members += arrow(delta: delta, rounded: rounded, text: text)
        }
        members.append(.init("versus", JSONText.quoted(Self.versus(comparison))))
        return members
    }

    /// What a comparison is written as after "vs".
    static func versus(_ comparison: MetricWindow.Comparison) -> String {
        switch comparison {
        case .yesterday: "this time yesterday"
        case .lastWeek: "this time last week"
        }
    }
}
