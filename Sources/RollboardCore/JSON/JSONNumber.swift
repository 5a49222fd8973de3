/// A JSON number: its literal text and the nearest `Double` (infinite when the literal is out of range).
package struct JSONNumber: Equatable {
    package let literal: String

    package init(literal: String) {
        self.literal = literal
    }

    /// The shortest text that reads back as `value`, without exponent or `.0` for whole numbers below 10^15.
    init(_ value: Double) {
        precondition(value.isFinite, "JSON has no non-finite numbers")
        if value.rounded() == value, abs(value) < 1e15 {
            literal = String(Int64(value))
        } else {
            literal = String(value)
        }
    }

    package var double: Double {
        Double(literal) ?? .nan
    }

    /// The value as an `Int` when it is a whole number in range.
    package var integer: Int? {
        let value = double
        guard value.isFinite, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }
}
