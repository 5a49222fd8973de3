import Testing
import RollboardAnimation

@Suite("NumberFormat")
struct NumberFormatTests {
    @Test("formats and grouping patterns produce locale-free text", arguments: [
        ("%d", nil as String?, 3048.64, "3049"),   // rounded, not truncated as (int)value would
        ("%d", nil, 0.9, "1"),
        ("%d", nil, -0.4, "0"),                    // never "−0"
        ("%.2f", nil, 3048.64, "3048.64"),
        ("%f", nil, 1.5, "1.500000"),
        ("%.2f", "###,##0.00", 3048.64, "3,048.64"),
        ("%f", "###,###.##", 3048.64, "3,048.64"),
        ("%f", "###,###.##", 3048.6, "3,048.6"),
        ("%f", "###,###.##", 3048, "3,048"),
        ("%f", "###,###.##", 0, "0"),
        ("%f", "###,###.##", 0.5, ".5"),
        ("%.2f", "###,##0.00", 0, "0.00"),
        ("%d", "#,##0", 1_234_567, "1,234,567"),
        ("%.1f", nil, -2.25, "\u{2212}2.3"),   // ties go away from zero, not to even as printf
        ("%.2f", nil, 0.125, "0.13"),
        ("%.2f", nil, 0.375, "0.38"),
        ("%.0f", nil, 1.5, "2"),
        ("%.2f", nil, -0.001, "0.00"),
        ("%d%%", nil, 42, "42%"),
        ("up %.1f km", nil, 3.25, "up 3.3 km"),
    ])
    func formats(format: String, grouping: String?, value: Double, text: String) throws {
        #expect(try NumberFormat(format: format, grouping: grouping).string(for: value) == text)
    }

    @Test("separators replace the pattern's , and . and a pattern may be written with them swapped", arguments: [
        (",", ".", "#,##0.00", false, -1_234_567.891, "\u{2212}1,234,567.89"),
        (".", ",", "#,##0.00", false, 1_234_567.891, "1.234.567,89"),
        (".", ",", "#.##0,00", false, 1_234_567.891, "1.234.567,89"),
        ("\u{202F}", ",", nil, true, 1_234.5, "1\u{202F}234,50"),
        ("’", ".", nil, true, 999.5, "999.50"),
        ("’", ".", nil, true, 1_000, "1’000.00"),
    ] as [(String, String, String?, Bool, Double, String)])
    func separators(group: String, decimal: String, pattern: String?, groupsOfThree: Bool, value: Double, text: String) throws {
        let format = try NumberFormat(
            format: "%.2f", grouping: pattern, groupSeparator: group, decimalSeparator: decimal, groupsOfThree: groupsOfThree)
        #expect(format.string(for: value) == text)
    }

    @Test("compact notation writes whole numbers below 1,000 and K, M, B, T above, trailing zeros dropped",
          arguments: [
            (950.4, "950"), (999.6, "1K"), (1_000, "1K"), (12_345, "12.3K"), (12_000, "12K"), (999_960, "1M"),
            (4_500_000, "4.5M"), (-4_500_000, "\u{2212}4.5M"), (7.26e9, "7.3B"), (3e12, "3T"), (2.5e15, "2500T"),
          ])
    func compact(value: Double, text: String) throws {
        #expect(try NumberFormat(format: "%.1f", compact: true).string(for: value) == text)
    }

    @Test("prefix and suffix surround the number and its sign")
    func prefixAndSuffix() throws {
        let format = try NumberFormat(format: "%.2f", grouping: "#,##0.00", prefix: "$", suffix: " USD")
        #expect(format.string(for: -1234.5) == "$\u{2212}1,234.50 USD")
    }

    @Test("formats and patterns it does not understand are refused", arguments: [
        ("%s", nil as String?), ("%.7f", nil), ("%d %d", nil), ("no conversion", nil), ("%5d", nil), ("%.2d", nil),
        ("%f", "##a"), ("%f", "#.#######"), ("%f", "#,"),
    ])
    func refuses(format: String, grouping: String?) {
        #expect(throws: AnimationError.invalidFormat) { try NumberFormat(format: format, grouping: grouping) }
    }
}
