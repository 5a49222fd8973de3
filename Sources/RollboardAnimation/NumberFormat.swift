/// Turns a number into counter text: a printf-style format (`%d`, `%i`, `%f`, `%.Nf` with N ≤ 6,
/// literal text and `%%` around it), an optional grouping pattern in the style of
/// NSNumberFormatter's `positiveFormat` (`###,##0.00`, `#,##0`, `###,###.##`), and a prefix and
/// suffix. The pattern is written with `,` for grouping and `.` for the decimal point, or with the two swapped
/// (`#.##0,00`) when the decimal separator is `,`; the text uses the configured separators (by default `,` and `.`)
/// and a true minus sign (U+2212).
public struct NumberFormat: Hashable, Sendable {
    /// The printf-style format.
    public let format: String
    /// The grouping pattern, if any.
    public let grouping: String?
    /// Text before the number (and before its minus sign).
    public let prefix: String
    /// Text after the number.
    public let suffix: String
    /// Written between groups of integer digits.
    public let groupSeparator: String
    /// Written between the integer and the fraction.
    public let decimalSeparator: String
    /// Whether the number is written in compact notation: below 1,000 as a whole number, above in thousands (`K`),
    /// millions (`M`), billions (`B`) or trillions (`T`) with the format's decimal places, trailing zeros dropped
    /// (`950`, `12.3K`, `4M`).
    public let compact: Bool

    /// The compact notation's units, one per power of 1,000.
    public static let compactUnits = ["", "K", "M", "B", "T"]

    /// The minus sign of negative numbers (U+2212, as wide as a plus).
    public static let minus = "\u{2212}"

    /// Whether the format counts whole numbers (`%d`, `%i`).
    public let countsWholeNumbers: Bool
    /// Decimal places the value is rounded to.
    public let fractionDigits: Int
    private let minimumFractionDigits: Int
    private let minimumIntegerDigits: Int
    private let groupSize: Int
    private let literalBefore: String
    private let literalAfter: String
    /// 10^fractionDigits.
    let scale: Double

    /// Parses `format` and `grouping`; throws ``AnimationError/invalidFormat`` when either is not understood.
    /// `groupsOfThree` groups the integer digits by three when there is no grouping pattern.
    public init(
        format: String = "%f", grouping: String? = nil, prefix: String = "", suffix: String = "",
        groupSeparator: String = ",", decimalSeparator: String = ".", groupsOfThree: Bool = false,
        compact: Bool = false
    ) throws(AnimationError) {
        self.compact = compact
        self.format = format
        self.grouping = grouping
        self.prefix = prefix
        self.suffix = suffix
        self.groupSeparator = groupSeparator
        self.decimalSeparator = decimalSeparator

        var before = ""
        var after = ""
        var conversion: (whole: Bool, digits: Int)?
        var characters = format[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                if conversion == nil { before.append(character) } else { after.append(character) }
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                if conversion == nil { before.append("%") } else { after.append("%") }
                continue
            }
            guard conversion == nil else {
                throw AnimationError(.invalidFormat, "format \"\(format)\" has more than one conversion")
            }
            var precision: Int?
            if characters.first == "." {
                characters.removeFirst()
                let digits = characters.prefix { $0.isASCII && $0.isNumber }
                characters.removeFirst(digits.count)
                precision = Int(digits) ?? 0
            }
            switch (characters.popFirst(), precision) {
            case ("d", nil), ("i", nil):
                conversion = (true, 0)
            case ("f", let precision) where (precision ?? 6) <= 6:
                conversion = (false, precision ?? 6)
            default:
                throw AnimationError(.invalidFormat, "format \"\(format)\" must use %d, %i, %f or %.Nf with N at most 6")
            }
        }
        guard let conversion else {
            throw AnimationError(.invalidFormat, "format \"\(format)\" has no %d, %i or %f conversion")
        }
        literalBefore = before
        literalAfter = after
        countsWholeNumbers = conversion.whole

        var fractionDigits = conversion.digits
        var minimumFraction = conversion.digits
        var minimumInteger = 1
        var groupSize = groupsOfThree ? 3 : 0
        if var grouping {
            if decimalSeparator == ",", Self.isSwapped(grouping) {
                grouping = String(grouping.map { $0 == "," ? "." : $0 == "." ? "," : $0 })
            }
            let parts = grouping.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let integer = parts[0]
            let fraction = parts.count > 1 ? parts[1] : ""
            guard !integer.isEmpty || !fraction.isEmpty,
                  integer.allSatisfy({ "#0,".contains($0) }), fraction.allSatisfy({ "#0".contains($0) }),
                  !integer.hasSuffix(","), fraction.count <= 6 else {
                throw AnimationError(.invalidFormat, "grouping pattern \"\(grouping)\" must be made of # 0 , and at most 6 places after .")
            }
            if let comma = integer.lastIndex(of: ",") {
                groupSize = integer.distance(from: comma, to: integer.endIndex) - 1
            }
            minimumInteger = integer.count { $0 == "0" }
            minimumFraction = conversion.whole ? 0 : fraction.count { $0 == "0" }
            fractionDigits = conversion.whole ? 0 : fraction.count
        }
        self.fractionDigits = fractionDigits
        minimumFractionDigits = minimumFraction
        minimumIntegerDigits = minimumInteger
        self.groupSize = groupSize
        scale = Double(OdometerLeg.powersOfTen[fractionDigits])
    }

    /// Whether a pattern uses `.` for grouping and `,` for the decimal point (`#.##0,00`): its last `,` follows a `.`.
    private static func isSwapped(_ pattern: String) -> Bool {
        guard let comma = pattern.lastIndex(of: ","), let point = pattern.lastIndex(of: ".") else { return false }
        return comma > point
    }

    /// The largest |value| × 10^fractionDigits that is formatted exactly.
    static let largestScaled = 9e15

    /// Magnitudes below this are formatted exactly with this format's decimal places; larger ones are refused.
    public var largestMagnitude: Double { Self.largestScaled / scale }

    /// The text for `value` at rest, rounded to the format's places (none for `%d`) half away from zero
    /// (``shownRounding(_:)``): 0.9 shows 1, 2.5 shows 3, −2.5 shows −3, and −0.4 shows 0, never −0. `value` must be
    /// finite and within range (see ``Counter/settle(_:after:)``).
    public func string(for value: Double) -> String {
        compact ? compactString(value, rounding: .toNearestOrAwayFromZero) : string(scaled: restingScaled(value))
    }

    /// `scaled` rounded to a whole number as every tile rounds what it shows: to the nearest, halves away from zero
    /// (2.5 → 3, −2.5 → −3). A value within a few units in the last place of a half counts as that half, so a
    /// decimal tie that a double holds only approximately rounds as written: 2.675 × 100 is
    /// 267.49999999999997 and shows 268.
    public static func shownRounding(_ scaled: Double) -> Double {
        let half = (scaled * 2).rounded(.toNearestOrEven) / 2
        let tolerance = 4 * max(abs(scaled), 1).ulp
        let snapped = abs(scaled - half) <= tolerance ? half : scaled
        return snapped.rounded(.toNearestOrAwayFromZero)
    }

    /// `value` in compact notation, its mantissa rounded by `rule` to the format's places (none below 1,000;
    /// `.toNearestOrAwayFromZero` is ``shownRounding(_:)``); a mantissa that rounds to 1,000 moves on to the next unit.
    func compactString(_ value: Double, rounding rule: FloatingPointRoundingRule) -> String {
        var unit = 0
        var mantissa = value
        while unit < Self.compactUnits.count - 1 && abs(mantissa) >= 1_000 {
            mantissa /= 1_000
            unit += 1
        }
        func round(_ scaled: Double) -> Double {
            rule == .toNearestOrAwayFromZero ? Self.shownRounding(scaled) : scaled.rounded(rule)
        }
        var places = unit == 0 ? 0 : fractionDigits
        var scaled = round(mantissa * Double(OdometerLeg.powersOfTen[places]))
        if abs(scaled) >= 1_000 * Double(OdometerLeg.powersOfTen[places]) && unit < Self.compactUnits.count - 1 {
            unit += 1
            places = fractionDigits
            scaled = round(mantissa / 1_000 * Double(OdometerLeg.powersOfTen[places]))
        }
        return string(scaled: Int64(scaled), places: places, unit: Self.compactUnits[unit], trimming: true)
    }

    /// `value` × 10^fractionDigits as shown at rest (``shownRounding(_:)``).
    func restingScaled(_ value: Double) -> Int64 {
        Int64(Self.shownRounding(value * scale))
    }

    /// `value` × 10^fractionDigits rounded toward where a count started, so a count never shows a
    /// number it has not reached: down when counting up, up when counting down.
    func countingScaled(_ value: Double, upward: Bool) -> Int64 {
        let scaled = value * scale
        return Int64(Self.snapped(scaled) ?? scaled.rounded(upward ? .down : .up))
    }

    /// The nearest whole number when `scaled` differs from it only by binary representation error.
    private static func snapped(_ scaled: Double) -> Double? {
        let nearest = scaled.rounded(.toNearestOrEven)
        return abs(scaled - nearest) <= 1e-9 * max(1, abs(scaled)) ? nearest : nil
    }

    /// The text for the number `scaled` / 10^fractionDigits.
    func string(scaled: Int64) -> String {
        string(scaled: scaled, places: fractionDigits, unit: "", trimming: false)
    }

    /// The text for `scaled` / 10^places followed by `unit`; `trimming` drops every trailing zero of the fraction.
    private func string(scaled: Int64, places fractionDigits: Int, unit: String, trimming: Bool) -> String {
        let magnitude = scaled.magnitude
        let divisor = UInt64(OdometerLeg.powersOfTen[fractionDigits])
        var integer = magnitude / divisor
        var fraction = magnitude % divisor

        var fractionText: [UInt8] = []
        var places = fractionDigits
        let minimumPlaces = trimming ? 0 : minimumFractionDigits
        while places > minimumPlaces && fraction % 10 == 0 && places > 0 {
            fraction /= 10
            places -= 1
        }
        for _ in 0..<places {
            fractionText.append(UInt8(ascii: "0") + UInt8(fraction % 10))
            fraction /= 10
        }
        var digits: [UInt8] = []
        while integer > 0 || digits.count < minimumIntegerDigits {
            digits.append(UInt8(ascii: "0") + UInt8(integer % 10))
            integer /= 10
        }
        if digits.isEmpty && fractionText.isEmpty { digits.append(UInt8(ascii: "0")) }
        digits.reverse()

        var text = prefix
        text += literalBefore
        if scaled < 0 { text += Self.minus }
        for (index, digit) in digits.enumerated() {
            let left = digits.count - index
            if groupSize > 0 && index > 0 && left % groupSize == 0 { text += groupSeparator }
            text.unicodeScalars.append(Unicode.Scalar(digit))
        }
        if !fractionText.isEmpty {
            text += decimalSeparator
            text += String(decoding: fractionText.reversed(), as: UTF8.self)
        }
        text += unit
        text += literalAfter
        text += suffix
        return text
    }
}
