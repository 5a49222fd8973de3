import ArgumentParser
import Foundation
import RollboardAnimation

/// The kinds `rollboard simulate` knows.
struct SimulateKind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollboard simulate",
        abstract: "Print an animation's frames as JSON lines, one per frame until it comes to rest.",
        subcommands: [
            SimulateOdometer.self, SimulateCounter.self, SimulateWheel.self, SimulateCarousel.self, SimulateGauge.self, SimulateClock.self, SimulateLeaderboard.self,
            SimulateChart.self,
        ]
    )
}
