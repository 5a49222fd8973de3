/// Options of an `odometer` tile: rolling digit columns.
public struct OdometerOptions: Sendable, Equatable {
    /// Largest column count any odometer may have (keeps every shown value exact in a `Double`).
    public static let columnLimit = 15
    /// Largest number of decimal places.
    public static let decimalsLimit = 6

    public var columns: Columns
    /// Fixed decimal places (part of the column count).
    public var decimals: Int
    public var prefix: String
    public var suffix: String

    public init(
        columns: Columns = .growing(max: columnLimit), decimals: Int = 0, prefix: String = "", suffix: String = ""
    ) {
        self.columns = columns
        self.decimals = decimals
        self.prefix = prefix
        self.suffix = suffix
    }

    /// A fixed column count, or columns that grow on the left up to a maximum.
    public enum Columns: Sendable, Equatable {
        case fixed(Int)
        case growing(max: Int)

        /// The most columns the tile can ever show.
        public var maximum: Int {
            switch self {
            case .fixed(let count), .growing(max: let count): count
            }
        }
    }

    /// Whether the tile can show `value`: rounded to `decimals` places it fits in the columns
    /// (`|value| × 10^decimals < 10^columns`, the sign is drawn outside the columns).
    public func canShow(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        let scaled = (abs(value) * pow10(decimals)).rounded()
        return scaled < pow10(columns.maximum)
    }

    /// The largest value the tile can show, as text (`999999.99` for 8 columns with 2 decimals).
    public var largestValueText: String {
        let integerDigits = columns.maximum - decimals
        let integer = integerDigits > 0 ? String(repeating: "9", count: integerDigits) : "0"
        return decimals > 0 ? integer + "." + String(repeating: "9", count: decimals) : integer
    }
}

/// 10 raised to a small non-negative power, exactly.
func pow10(_ exponent: Int) -> Double {
    var result = 1.0
    for _ in 0..<exponent { result *= 10 }
    return result
}
