import ArgumentParser
import Foundation
import RollboardAPI
import RollboardAccess
import RollboardConfig
import RollboardCore
import RollboardHub
import RollboardMetrics
import RollboardNet
import RollboardServer
import RollboardSources
import RollboardStore

/// `rollboard simulate clock`: what a clock tile shows, one line per turn.
struct SimulateClock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "A clock's turns: {\"t\":…,\"time\":\"…\",\"date\":\"…\"} at t = 0 and at every turn of the wall clock."
    )

    @Option(help: "The wall-clock instant at t = 0, ISO 8601 in UTC (2026-10-25T00:59:58Z); default now.")
    var at: String?

    @Option(help: "An IANA time zone name (the dashboard's timeZone); default the server's.")
    var timeZone: String?

    @Option(help: "The language the time and date are written in.")
    var locale: String = ClockOptions.defaultLocale

    @Flag(help: "Hours and minutes only (turns every minute).")
    var noSeconds = false

    @Flag(help: "The time only.")
    var noDate = false

    @Option(help: "How many seconds to simulate.")
    var seconds: Double = 5

    func run() throws {
        try SimulateOutput.validate(seconds: seconds)
        if let problem = KnownLocales.problem(with: locale) {
            throw ValidationError("--locale: \(problem)")
        }
        var zone = DashboardTimeZone.server
        if let timeZone {
            guard let named = DashboardTimeZone(identifier: timeZone) else {
                throw ValidationError("--time-zone must be an IANA time zone name such as Europe/Berlin, not \"\(timeZone)\"")
            }
            zone = named.timeZone
        }
        var start = Date().timeIntervalSince1970
        if let at {
            guard let date = try? Date(at, strategy: .iso8601) else {
                throw ValidationError("--at must be an ISO 8601 instant such as 2026-10-25T00:59:58Z, not \"\(at)\"")
            }
            start = date.timeIntervalSince1970
        }
        let face = ClockFace(timeZone: zone, locale: locale, seconds: !noSeconds, date: !noDate)
        var t = 0.0
        var output = ""
        while t <= seconds {
            let members = face.members(wall: start + t).map { "\"\($0.name)\":\(JSONText.quoted($0.text))" }
            output += "{\"t\":\(SimulateOutput.number(t)),\(members.joined(separator: ","))}\n"
            t = ((start + t) / face.step).rounded(.down) * face.step + face.step - start
        }
        print(output, terminator: "")
    }
}
