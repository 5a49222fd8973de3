import RollboardAnimation
package import RollboardConfig
package import RollboardCore

extension NumberFormat {
    /// How a KPI indicator writes the change of a number shown in this format: the same decimal places, separators
    /// and compact notation, without prefix, suffix or literal text; integer digits grouped by three when
    /// `groupsOfThree`.
    func deltaFormat(groupsOfThree: Bool) throws(AnimationError) -> NumberFormat {
        try NumberFormat(
            format: "%.\(fractionDigits)f", groupSeparator: groupSeparator, decimalSeparator: decimalSeparator,
            groupsOfThree: groupsOfThree, compact: compact)
    }
}
