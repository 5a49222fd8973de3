import Foundation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Clock tile")
struct ClockTileTests {
    static let berlin = DashboardTimeZone(identifier: "Europe/Berlin")!.timeZone

    func clock(wallAtZero: Double, locale: String = "de-DE", seconds: Bool = true, date: Bool = true) -> ClockTile {
        ClockTile(
            tileID: "clock", face: ClockFace(timeZone: Self.berlin, locale: locale, seconds: seconds, date: date),
            wallOffset: wallAtZero)
    }

    @Test("in Europe/Berlin the autumn change turns 02:59:59 summer time into 02:00:00 winter time, second by second",
        arguments: [
            (0.0, "02:59:58"), (0.999, "02:59:58"), (1, "02:59:59"), (2, "02:00:00"), (3.5, "02:00:01"),
            (3_602.0, "03:00:00"),
        ])
    func autumn(time: Double, shown: String) throws {
        // 2026-10-25 00:59:58 UTC is 02:59:58 CEST; an hour later the wall reads 02:59:58 again, in CET.
        let tile = clock(wallAtZero: 1_792_889_998)
        #expect(tile.encodedState(at: time) == #"{"time":"\#(shown)","date":"Sonntag, 25. Oktober 2026"}"#)
    }

    @Test("in Europe/Berlin the spring change goes from 01:59:59 straight to 03:00:00", arguments: [
        (0.0, "01:59:59"), (1, "03:00:00"), (2, "03:00:01"),
    ])
    func spring(time: Double, shown: String) {
        // 2026-03-29 00:59:59 UTC is 01:59:59 CET.
        let tile = clock(wallAtZero: 1_774_745_999, date: false)
        #expect(tile.encodedState(at: time) == #"{"time":"\#(shown)"}"#)
    }

    @Test("it turns on the wall clock's whole seconds (or minutes), whatever the hub's clock reads", arguments: [
        (true, 0.0, 0.4), (true, 0.4, 1.4), (true, 0.9, 1.4), (false, 0.0, 42.4), (false, 42.4, 102.4),
    ])
    func turns(seconds: Bool, after: Double, next: Double) {
        // Hub time 0 is 17.6 s past a whole minute on the wall.
        let tile = clock(wallAtZero: 1_792_889_957.6, seconds: seconds)
        #expect(abs((tile.nextMotion(after: after) ?? -1) - next) < 1e-6)
        #expect(tile.nextCalmMotion(after: after) == tile.nextMotion(after: after))
        #expect(tile.calmState(at: after) == tile.state(at: after))
    }

    @Test("a language that counts twelve hours writes its own hours and AM/PM (after a narrow no-break space, as CLDR has it)")
    func twelveHours() {
        let tile = clock(wallAtZero: 1_792_889_998 + 12 * 3_600, locale: "en-US", seconds: false)
        #expect(tile.encodedState(at: 0) == "{\"time\":\"1:59\u{202F}PM\",\"date\":\"Sunday, October 25, 2026\"}")
    }

    @Test("a dashboard's timeZone must be an IANA name; the error names the field", arguments: [
        ("Europe/Berlin", true), ("UTC", true), ("Asia/Kolkata", true), ("America/Argentina/Buenos_Aires", true),
        ("Mars/Olympus", false), ("GMT+1", false), ("UTC-05:00", false), ("europe berlin", false), ("", false),
    ])
    func timeZoneNames(name: String, valid: Bool) throws {
        let yaml = "id: demo\ntimeZone: \"\(name)\"\ntiles: [{id: now, type: clock}]\n"
        #expect(Self.problems(yaml) == (valid ? [] : [
            #"d/demo.yaml: timeZone: must be an IANA time zone name such as Europe/Berlin or UTC, got "\#(name)""#,
        ]))
        if valid {
            let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/demo.yaml", yaml)])
            #expect(configuration.dashboard("demo")?.timeZone?.identifier == name)
            #expect(configuration.json(try #require(configuration.dashboard("demo"))).serialized
                .contains(#""timeZone":"\#(name)""#))
        }
    }

    static func problems(_ yaml: String) -> [String] {
        do {
            _ = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/demo.yaml", yaml)])
            return []
        } catch {
            return error.problems
        }
    }

    @Test("a clock takes seconds, date and locale; producers have nothing to write to it")
    func options() throws {
        let yaml = "id: demo\ntiles: [{id: now, type: clock, seconds: false, locale: fr-FR}]\n"
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/demo.yaml", yaml)])
        #expect(configuration.dashboard("demo")?.tile("now")?.options == .clock(ClockOptions(seconds: false, locale: "fr-FR")))
        #expect(configuration.catalog.kind(of: "now") == nil)
        let bad = "id: demo\ntiles: [{id: now, type: clock, seconds: often, queue: latest}]\n"
        #expect(Self.problems(bad) == [
            #"d/demo.yaml: tile "now": queue: clock tiles have no animation queue"#,
            #"d/demo.yaml: tile "now": seconds: must be true or false, got often"#,
        ])
    }

    @Test("a locale the server has no data for is refused, naming the file, the tile and the field, as counters do",
          arguments: [
            ("{id: now, type: clock, locale: xx-YY}", #"d/demo.yaml: tile "now": locale: "xx-YY" is not a locale the server knows"#),
            ("{id: now, type: clock, locale: de-XX}", #"d/demo.yaml: tile "now": locale: "de-XX" is not a locale the server knows"#),
            ("{id: now, type: clock, locale: \"de DE\"}", #"d/demo.yaml: tile "now": locale: "de DE" is not a locale the server knows"#),
          ])
    func unknownLocale(tile: String, problem: String) {
        let problems = Self.problems("id: demo\ntiles: [\(tile)]\n")
        #expect(problems.count == 1 && problems.first?.hasPrefix(problem) == true, "\(problems)")
    }

    @Test("a dashboard's locale, which its clocks take, is refused the same way when the server has no data for it")
    func unknownDashboardLocale() {
        let problems = Self.problems("id: demo\nlocale: xx-YY\ntiles: [{id: now, type: clock}]\n")
        #expect(problems.count == 1 && problems.first?.hasPrefix(#"d/demo.yaml: locale: "xx-YY" is not a locale the server knows"#) == true, "\(problems)")
    }

    @Test("locales the server knows are taken, written in any case", arguments: ["de-DE", "fr", "ko-KR", "zh-Hans-CN", "pt-br", "EN-us"])
    func knownLocale(locale: String) throws {
        #expect(Self.problems("id: demo\nlocale: \(locale)\ntiles: [{id: now, type: clock, locale: \(locale)}]\n") == [])
    }
}
