package import RollboardCore

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
    /// The longest a change takes, in seconds, column delays included (the article's timeline is played faster to
    /// fit); `0` plays the article's timeline as it is, however long.
    public var maxDuration: Double
    /// Separators and currency.
    public var style = NumberStyle()
    /// Whether leading zero columns show their zeros (`000250`); by default they are blank (`   250`).
    public var pad = false
    /// Compact notation: the columns show a mantissa below 1,000 (with `decimals` places) and a unit strip rolls
    /// between K, M, B and T; needs at least 3 + `decimals` columns.
    public var compact = false
    /// A sparkline under the number (`trend: 24h`).
    public var trend: TrendOptions?

    /// The default `maxDuration`: a wall screen shows the new value within three seconds.
    public static let defaultMaxDuration = 3.0

    public init(
        columns: Columns = .growing(max: columnLimit), decimals: Int = 0, prefix: String = "", suffix: String = "",
        maxDuration: Double = defaultMaxDuration
    ) {
        self.columns = columns
        self.decimals = decimals
        self.prefix = prefix
        self.suffix = suffix
        self.maxDuration = maxDuration
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

    /// The largest value the tile can show, as text (`999999.99` for 8 columns with 2 decimals).
    public var largestValueText: String {
        let integerDigits = columns.maximum - decimals
        let integer = integerDigits > 0 ? String(repeating: "9", count: integerDigits) : "0"
        return decimals > 0 ? integer + "." + String(repeating: "9", count: decimals) : integer
    }
}

