import Testing
import RollboardAnimation

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("NumberStyle")
struct NumberStyleTests {
    @Test(
        "a counter in each locale writes grouping, decimal mark, currency position and a true minus",
        arguments: [
            ("en-US", "$", -1_234_567.5, "$\u{2212}1,234,567.50"),
            ("en-GB", "£", 1_234.5, "£1,234.50"),
            ("de-DE", "€", 1_234.56, "1.234,56\u{00A0}€"),
            ("fr-FR", "€", 1_234.56, "1\u{202F}234,56\u{00A0}€"),
            ("de-CH", "CHF", 1_234_567.25, "CHF\u{00A0}1’234’567.25"),
            ("nl-NL", "€", 1_234.56, "€\u{00A0}1.234,56"),
            ("pt-BR", "R$", 99.9, "R$\u{00A0}99,90"),
            ("sv-SE", "kr", -1_234.56, "\u{2212}1\u{00A0}234,56\u{00A0}kr"),
            ("ja-JP", "¥", 1_234_567, "¥1,234,567.00"),
            ("es-ES", "€", 0.5, "0,50\u{00A0}€"),
        ])
    func counterLocales(locale: String, currency: String, value: Double, text: String) throws {
        var options = CounterOptions(format: "%.2f")
        options.style = NumberStyle(locale: NumberLocale(locale), currency: currency)
        #expect(try options.counter().settle(value, after: nil).text == text)
    }

    @Test(
        "an odometer's hello carries the separators and the currency where its locale puts them",
        arguments: [
            ("en-US", ",", ".", "$", ""),
            ("de-DE", ".", ",", "", "\u{00A0}$"),
            ("fr-FR", "\u{202F}", ",", "", "\u{00A0}$"),
            ("de-CH", "’", ".", "$\u{00A0}", ""),
            ("it-IT", ".", ",", "", "\u{00A0}$"),
            ("pl-PL", "\u{00A0}", ",", "", "\u{00A0}$"),
        ])
    func odometerLocales(locale: String, group: String, decimal: String, prefix: String, suffix: String) throws {
        let yaml = "id: demo\ntiles:\n  - id: sales\n    type: odometer\n    decimals: 2\n    locale: \(locale)\n    currency: \"$\"\n"
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("demo.yaml", yaml)])
        let tile = try #require(configuration.dashboard("demo")?.tile("sales"))
        guard case .object(let members) = configuration.json(tile) else {
            Issue.record("a tile is a JSON object")
            return
        }
        #expect(members.contains(JSONMember("groupSeparator", .string(group))))
        #expect(members.contains(JSONMember("decimalSeparator", .string(decimal))))
        #expect(members.contains(JSONMember("prefix", .string(prefix))))
        #expect(members.contains(JSONMember("suffix", .string(suffix))))
        #expect(members.contains(JSONMember("locale", .string(locale))))
    }

    @Test("separators of the tile's own win over the locale's, and a localized pattern is understood")
    func ownSeparators() throws {
        var options = CounterOptions(format: "%.2f", grouping: "#.##0,00")
        options.style = NumberStyle(locale: NumberLocale("de-DE"), groupSeparator: " ")
        #expect(try options.counter().settle(1_234_567.891, after: nil).text == "1 234 567,89")
        #expect(CounterOptions.decimals(ofGrouping: "#.##0,00", decimalSeparator: ",") == 2)
        #expect(CounterOptions.decimals(ofGrouping: "#.##0,00") == nil)
    }

    @Test(
        "a counter's grouping pattern groups with its own separator unless a locale or a separator says otherwise",
        arguments: [
            ("", "#,##0", "%d", 2_205.0, "2,205", ","),
            ("", "###,##0.00", "%.2f", 1_234_567.5, "1,234,567.50", ","),
            ("    decimalSeparator: \",\"\n", "#.##0,00", "%.2f", 1_234.5, "1.234,50", "."),
            ("    locale: de-DE\n", "#.##0,00", "%.2f", 2_205.5, "2.205,50", "."),
            ("    groupSeparator: \"'\"\n", "#,##0", "%d", 2_205.0, "2'205", "'"),
            ("    groupSeparator: \"\"\n", "#,##0", "%d", 2_205.0, "2205", ""),
        ])
    func groupingPattern(
        style: String, grouping: String, format: String, value: Double, text: String, separator: String
    ) throws {
        let yaml =
            "id: demo\ntiles:\n  - id: orders\n    type: counter\n    format: \"\(format)\"\n"
            + "    grouping: \"\(grouping)\"\n" + style
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("demo.yaml", yaml)])
        let tile = try #require(configuration.dashboard("demo")?.tile("orders"))
        guard case .counter(let options) = tile.options, case .object(let members) = configuration.json(tile) else {
            Issue.record("a counter tile is a JSON object")
            return
        }
        #expect(try options.counter().settle(value, after: nil).text == text)
        #expect(members.contains(JSONMember("groupSeparator", .string(separator))))
    }

    @Test("without a locale nothing changes: no grouping, a point, the currency before the number")
    func plain() throws {
        let style = NumberStyle(currency: "$")
        #expect(style.effectiveGroupSeparator == "")
        #expect(style.effectiveDecimalSeparator == ".")
        #expect(style.affixes(prefix: "", suffix: " today") == ("$", " today"))
    }

    @Test(
        "a style the configuration cannot use is refused with a message naming the field",
        arguments: [
            ("locale: xx-YY", "locale: must be one of en-US"),
            ("decimalSeparator: \"\"", "decimalSeparator: must not be empty"),
            ("groupSeparator: \"1\"", "groupSeparator: must not contain digits or a minus sign, got \"1\""),
            ("groupSeparator: \"abcd\"", "groupSeparator: must be at most 3 characters, got \"abcd\""),
            ("locale: de-DE\ngroupSeparator: \",\"", "groupSeparator: must differ from the decimal separator \",\""),
        ])
    func refuses(lines: String, message: String) {
        let tile = lines.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let yaml = "id: demo\ntiles:\n  - id: sales\n    type: odometer\n\(tile)\n"
        do {
            _ = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("demo.yaml", yaml)])
            Issue.record("accepted \(lines)")
        } catch {
            #expect(error.problems.contains { $0.contains("tile \"sales\": " + message) }, "\(error.problems)")
        }
    }
}
