/// A finite number as compact JSON: whole numbers without a fraction, others with at most `places` decimals.
package func jsonNumber(_ value: Double, places: Int = 4) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if rounded == rounded.rounded(.towardZero), abs(rounded) < 1e15 {
        return String(Int64(rounded))
    }
    return "\(rounded)"
}
