import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Counter tile")
struct CounterTileTests {
    @Test("it counts to the new value and shows the formatted text, ending on it")
    func countsToTheValue() throws {
        let format = try NumberFormat(format: "%.2f", grouping: "###,##0.00", prefix: "$")
        var tile = try CounterTile(
            tileID: "revenue", configuration: CounterConfiguration(duration: 1, easing: .linear, format: format),
            value: 0, backlog: 8, at: 0)
        try tile.apply(.value(3048.64, interval: nil, animated: true), at: 0)
        #expect(tile.encodedState(at: 0.5) == #"{"text":"$1,524.32","target":3048.64}"#)
        #expect(tile.encodedState(at: 1) == #"{"text":"$3,048.64","target":3048.64}"#)
        #expect(tile.nextMotion(after: 0.5) == 0.5)
        #expect(tile.nextMotion(after: 1) == nil)
    }
}
