import Foundation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardServer

@Suite("Tile state")
struct TileStateTests {
    private static func odometer(_ columns: [Int32], _ members: [TileState.Member] = [.init("target", "1")]) -> TileState {
        TileState(columns: columns, members: members)
    }

    struct PatchCase: CustomTestStringConvertible, Sendable {
        let name: String
        let old: TileState?
        let new: TileState?
        let patch: String?
        var testDescription: String { name }
    }

    static let patches: [PatchCase] = [
        PatchCase(name: "nothing changed", old: odometer([1000, 2000]), new: odometer([1000, 2000]), patch: nil),
        PatchCase(
            name: "columns at rest that move: their corrections from the first to the last moved column",
            old: odometer([1000, 2000, 3000, 4000]), new: odometer([1000, 2500, 3000, 4250]), patch: "[1,500,0,250]"),
        PatchCase(
            name: "columns that keep their velocity: only the tile's empty motion",
            old: TileState(columns: [1000, 2000], velocities: [0, 300], members: [.init("target", "1")]),
            new: odometer([1000, 2300]), patch: "[]"),
        PatchCase(
            name: "a column that stops: the correction that cancels its velocity",
            old: TileState(columns: [1000, 2000], velocities: [0, 300], members: [.init("target", "1")]),
            new: odometer([1000, 2000]), patch: "[1,-300]"),
        PatchCase(
            name: "the shortest way round the strip", old: odometer([9900]), new: odometer([100]), patch: "[0,200]"),
        PatchCase(
            name: "a member changed too", old: odometer([1000, 2000]),
            new: odometer([1000, 2100], [.init("target", "2")]), patch: #"{"m":[1,100],"target":2}"#),
        PatchCase(
            name: "the column count changed: d with every column", old: odometer([9000]), new: odometer([1000, 0]),
            patch: #"{"d":[1000,0]}"#),
        PatchCase(
            name: "a member went away", old: odometer([1000], [.init("target", "1"), .init("behind", "true")]),
            new: odometer([1000]), patch: #"{"behind":null}"#),
        PatchCase(name: "the value went away", old: odometer([1000]), new: nil, patch: "null"),
        PatchCase(name: "still no value", old: nil, new: nil, patch: nil),
        PatchCase(
            name: "a first value is sent in full", old: nil, new: odometer([7000]), patch: #"{"d":[7000],"target":1}"#),
        PatchCase(
            name: "tiles without columns send their changed members",
            old: TileState(members: [.init("text", #""1""#), .init("target", "1")]),
            new: TileState(members: [.init("text", #""2""#), .init("target", "1")]), patch: #"{"text":"2"}"#),
    ]

    @Test("a patch holds only what changed", arguments: patches)
    func patchHoldsOnlyChanges(_ example: PatchCase) {
        let patch = TileState.patch(from: example.old, to: example.new)
        #expect(patch?.text == example.patch)
    }

    @Test("a full state is every column, the velocities while any moves, and the members; null without a value")
    func fullStates() {
        #expect(TileState.fullJSON(Self.odometer([1000, 2500])) == #"{"d":[1000,2500],"target":1}"#)
        let moving = TileState(columns: [1000, 2500], velocities: [0, -40], members: [.init("target", "1")])
        #expect(TileState.fullJSON(moving) == #"{"d":[1000,2500],"v":[0,-40],"target":1}"#)
        #expect(TileState.fullJSON(TileState(members: [.init("p", "1500")])) == #"{"p":1500}"#)
        #expect(TileState.fullJSON(nil) == "null")
    }

    /// Column positions over frames: a slow column; a column easing in, then turning fast and steadily (past the wrap,
    /// at a speed that is not a whole number of thousandths per frame); one that stops on a whole digit while the
    /// others move; one at rest.
    private static func motion(frames: Int) -> [[Int32]] {
        (0..<frames).map { frame in
            let time = Double(frame)
            let fast = time < 10 ? 26.41 * time * time / 20 : 132.05 + 26.41 * (time - 10)
            let slow = 0.2 + 0.0371 * time
            let stopping = min(5.0, 4.2 + 0.0993 * time)
            return [
                TileState.thousandths(slow, modulo: 10_000), TileState.thousandths(fast, modulo: 10_000),
                TileState.thousandths(stopping, modulo: 10_000), 4000,
            ]
        }
    }

    @Test("screens that apply every patch stay within the tolerance while columns move, exact on whole digits and at rest")
    func screensFollowTheMotion() throws {
        let positions = Self.motion(frames: 90)
        var sent: TileState? = nil
        var screen: Any = NSNull()
        var steadyFrames = 0
        for (frame, columns) in positions.enumerated() {
            let last = frame == positions.count - 1
            let new = TileState(columns: columns, members: [.init("target", "1")])
            guard let patch = TileState.patch(from: sent, to: new, exact: last) else { continue }
            if patch.text == "[]" { steadyFrames += 1 }
            sent = patch.state
            screen = Screen.patch(screen, with: try JSONSerialization.jsonObject(
                with: Data(patch.text.utf8), options: .fragmentsAllowed))
            let shown = try #require((screen as? [String: Any])?["d"] as? [Int])
            #expect(shown == patch.state?.columns.map(Int.init), "the screen has what the server thinks it has")
            let velocities = patch.state?.velocities ?? []
            for index in columns.indices {
                var error = abs(shown[index] - Int(columns[index])) % 10_000
                error = min(error, 10_000 - error)
                let tolerance = last || columns[index] % 1000 == 0 ? 0 : max(1, abs(Int(velocities[index])) / 100)
                #expect(error <= tolerance, "frame \(frame) column \(index): \(shown[index]) for \(columns[index])")
            }
        }
        #expect(steadyFrames > 20, "a steady turn costs only the empty motion: \(steadyFrames) frames")
    }

    @Test("positions become whole thousandths, wrapped where the strip wraps", arguments: [
        (3.25, Int32?.some(10_000), Int32(3250)), (9.9996, 10_000, 0), (1.2345, nil, 1235), (-0.0004, 10_000, 0),
        (4.0004, 4000, 0),
    ])
    func thousandths(_ position: Double, _ modulo: Int32?, _ expected: Int32) {
        #expect(TileState.thousandths(position, modulo: modulo) == expected)
    }
}
