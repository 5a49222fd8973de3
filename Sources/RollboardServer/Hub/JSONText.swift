/// `text` as a JSON string literal, quotes included.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// A finite number as compact JSON: whole numbers without a fraction, others with at most `places` decimals.
func jsonNumber(_ value: Double, places: Int = 4) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if rounded == rounded.rounded(.towardZero), abs(rounded) < 1e15 {
        return String(Int64(rounded))
    }
    return "\(rounded)"
}
