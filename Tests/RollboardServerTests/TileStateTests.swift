import Testing

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
            name: "only columns moved: the array shorthand from the first to the last changed column",
            old: odometer([1000, 2000, 3000, 4000]), new: odometer([1000, 2500, 3000, 4250]), patch: "[1,2500,3000,4250]"),
        PatchCase(
            name: "a member changed too", old: odometer([1000, 2000]),
            new: odometer([1000, 2100], [.init("target", "2")]), patch: #"{"d":[1,2100],"target":2}"#),
        PatchCase(
            name: "the column count changed: n and every column", old: odometer([9000]), new: odometer([1000, 0]),
            patch: #"{"n":2,"d":[0,1000,0]}"#),
        PatchCase(
            name: "a member went away", old: odometer([1000], [.init("target", "1"), .init("behind", "true")]),
            new: odometer([1000]), patch: #"{"behind":null}"#),
        PatchCase(name: "the value went away", old: odometer([1000]), new: nil, patch: "null"),
        PatchCase(name: "still no value", old: nil, new: nil, patch: nil),
        PatchCase(
            name: "a first value is sent in full", old: nil, new: odometer([7000]), patch: #"{"n":1,"d":[0,7000],"target":1}"#),
        PatchCase(
            name: "tiles without columns send their changed members",
            old: TileState(members: [.init("text", #""1""#), .init("target", "1")]),
            new: TileState(members: [.init("text", #""2""#), .init("target", "1")]), patch: #"{"text":"2"}"#),
    ]

    @Test("a patch holds only what changed", arguments: patches)
    func patchHoldsOnlyChanges(_ example: PatchCase) {
        var text = ""
        let wrote = TileState.appendPatch(from: example.old, to: example.new, into: &text)
        #expect(wrote == (example.patch != nil))
        #expect(text == (example.patch ?? ""))
    }

    @Test("a full state is the patch from nothing, and null without a value")
    func fullStates() {
        #expect(TileState.fullJSON(Self.odometer([1000, 2500])) == #"{"n":2,"d":[0,1000,2500],"target":1}"#)
        #expect(TileState.fullJSON(TileState(members: [.init("p", "1500")])) == #"{"p":1500}"#)
        #expect(TileState.fullJSON(nil) == "null")
    }

    @Test("positions become whole thousandths, wrapped where the strip wraps", arguments: [
        (3.25, Int32?.some(10_000), Int32(3250)), (9.9996, 10_000, 0), (1.2345, nil, 1235), (-0.0004, 10_000, 0),
        (4.0004, 4000, 0),
    ])
    func thousandths(_ position: Double, _ modulo: Int32?, _ expected: Int32) {
        #expect(TileState.thousandths(position, modulo: modulo) == expected)
    }
}
