import RollboardAnimation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardAPI

@Suite("Wheel tile")
struct WheelTileTests {
    private func makeTile() throws -> WheelTile {
        try WheelTile(tileID: "status", wheel: Wheel(contents: ["A", "B", "C", "D"], duration: 0.5), position: 0, backlog: 8, at: 0)
    }

    @Test(
        "a progress or an index eases the wheel to its position",
        arguments: [(TileChange.wheelProgress(0.4), 1.0), (.wheelIndex(3), 3.0), (.wheelProgress(1), 3.0)]
    )
    func movesToTarget(change: TileChange, position: Double) throws {
        var tile = try makeTile()
        try tile.apply(change, at: 0)
        #expect(tile.encodedState(at: 0.5) == "{\"p\":\(Int(position * 1000))}")
        #expect(tile.nextMotion(after: 0.5) == nil)
    }

    @Test("a wheel that was never set has a null state, and its first target shows at once, not turned to")
    func neverSet() throws {
        var tile = try WheelTile(
            tileID: "status", wheel: Wheel(contents: ["Operational", "Degraded", "Down"], duration: 0.5),
            position: nil, backlog: 8, at: 0)
        #expect(tile.state(at: 0) == nil)
        #expect(tile.encodedState(at: 10) == "null")
        try tile.apply(.wheelIndex(2), at: 10)
        #expect(tile.encodedState(at: 10) == "{\"p\":2000}")
        #expect(tile.nextMotion(after: 10) == nil)
        try tile.apply(.wheelIndex(1), at: 11)
        #expect(tile.encodedState(at: 11.25) != "{\"p\":1000}")
        #expect(tile.encodedState(at: 11.5) == "{\"p\":1000}")
    }

    @Test("an index past the contents is refused")
    func indexOutOfRangeIsRefused() throws {
        var tile = try makeTile()
        #expect(throws: AnimationError.self) { try tile.apply(.wheelIndex(4), at: 0) }
    }
}
