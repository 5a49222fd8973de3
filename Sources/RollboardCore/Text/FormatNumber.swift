
/// `value` without a trailing `.0` when it is a whole number.
package func formatNumber(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
    return String(value)
}
