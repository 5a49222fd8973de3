/// How an odometer lays out its digit columns.
public struct OdometerConfiguration: Hashable, Sendable {
    /// The column layout.
    public enum Columns: Hashable, Sendable {
        /// Always exactly this many columns (1…15); a value that does not fit is refused.
        case fixed(Int)
        /// As many columns as the widest value shown so far, added on the left when needed, up to
        /// `maximum` (1…15); a wider value is refused.
        case growing(maximum: Int)
    }

    /// The column layout; by default columns grow up to 8, as in DPScrollNumberLabel.
    public var columns: Columns
    /// Fixed decimal places (0…6): the columns show value × 10^decimals as an integer.
    public var decimals: Int
    /// The longest a change may take, in seconds, column delays and end phases included: a longer article timeline
    /// keeps its shape and is played faster. `nil` plays the article's timeline as it is, however long.
    public var maxDuration: Double?
    /// Compact notation: the columns show the value in thousands, millions, billions or trillions (a mantissa below
    /// 1,000 with `decimals` places) and a unit strip beside them rolls between `""`, K, M, B and T.
    public var compact: Bool

    /// No column waits for the columns below it longer than this share of the move, once the move is bounded (by
    /// `maxDuration` or a given interval); the article lets each column wait for every start phase below it.
    public static let maximumDelayShare = 0.25

    /// The most columns an odometer grows to by default (`simulate odometer`'s `--max-columns`).
    public static let defaultMaximumColumns = 8

    /// Creates a configuration; see ``validate()`` for the allowed ranges.
    public init(
        columns: Columns = .growing(maximum: defaultMaximumColumns), decimals: Int = 0, maxDuration: Double? = nil, compact: Bool = false
    ) {
        self.columns = columns
        self.decimals = decimals
        self.maxDuration = maxDuration
        self.compact = compact
    }

    /// The largest number of columns this configuration can show.
    public var maximumColumns: Int {
        switch columns {
        case .fixed(let count): count
        case .growing(let maximum): maximum
        }
    }

    /// Throws ``AnimationError/invalidConfiguration`` unless columns are 1…15 and decimals 0…6
    /// (and fixed columns leave room for a digit before the decimal places), and `maxDuration` is above 0.
    public func validate() throws(AnimationError) {
        let limit = DigitPositions.capacity
        guard (1...limit).contains(maximumColumns) else {
            throw AnimationError(.invalidConfiguration, "odometer columns must be 1…\(limit), not \(maximumColumns)")
        }
        guard (0...6).contains(decimals) else {
            throw AnimationError(.invalidConfiguration, "odometer decimals must be 0…6, not \(decimals)")
        }
        if let maxDuration, !(maxDuration.isFinite && maxDuration > 0) {
            throw AnimationError(.invalidConfiguration, "odometer maxDuration must be above 0 seconds, not \(maxDuration)")
        }
        guard maximumColumns > decimals else {
            throw AnimationError(.invalidConfiguration, "\(maximumColumns) columns leave no room for \(decimals) decimal places")
        }
        if compact && maximumColumns < 3 + decimals {
            throw AnimationError(
                .invalidConfiguration, "compact notation needs \(3 + decimals) columns for a mantissa up to 999 with \(decimals) decimal places")
        }
    }
}
