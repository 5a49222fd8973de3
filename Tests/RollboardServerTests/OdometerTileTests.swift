import RollboardAnimation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Odometer tile")
struct OdometerTileTests {
    private func makeTile(value: Double = 521) throws -> OdometerTile {
        try OdometerTile(
            tileID: "sales", configuration: OdometerConfiguration(columns: .fixed(3)), value: value, backlog: 8, at: 0)
    }

    @Test("at rest it sends whole digits, the sign and the target")
    func restingState() throws {
        #expect(try makeTile().encodedState(at: 0) == #"{"d":[5000,2000,1000],"negative":false,"target":521}"#)
    }

    @Test("a change rolls the digits and ends exactly on the new value; the target is where the running roll heads")
    func changeRollsAndRests() throws {
        var tile = try makeTile()
        try tile.apply(.value(542, interval: 1, animated: true), at: 0)
        try tile.apply(.value(-3, interval: 1, animated: true), at: 0.1)
        #expect(tile.encodedState(at: 0.5).hasSuffix(#""target":542}"#))
        #expect(tile.nextMotion(after: 0.5) == 0.5)
        let rest = tile.queue.restTime
        #expect(tile.encodedState(at: rest) == #"{"d":[0,0,3000],"negative":true,"target":-3}"#)
        #expect(tile.nextMotion(after: rest) == nil)
    }

    @Test("with no value yet its state is null, and the first value rolls in from zero")
    func noValueYet() throws {
        var tile = try OdometerTile(
            tileID: "sales", configuration: OdometerConfiguration(columns: .fixed(3)), value: nil, backlog: 8, at: 0)
        #expect(tile.encodedState(at: 0) == "null")
        try tile.apply(.value(7, interval: 1, animated: true), at: 1)
        #expect(tile.encodedState(at: 1) == #"{"d":[0,0,0],"negative":false,"target":7}"#)
        #expect(tile.encodedState(at: 2) == #"{"d":[0,0,7000],"negative":false,"target":7}"#)
    }

    @Test("a tile further behind its newest value than its lag bound is marked behind until it catches up")
    func behindMark() throws {
        var tile = try OdometerTile(
            tileID: "sales", configuration: OdometerConfiguration(columns: .fixed(6)), value: 0, backlog: 8, at: 0)
        try tile.apply(.value(99_999, interval: nil, animated: true), at: 0)  // the article's 13.5 s, no maxLag
        #expect(tile.encodedState(at: 1).contains(#""behind":true"#))
        #expect(!tile.encodedState(at: tile.queue.restTime - 5).contains("behind"))
    }

    @Test("columns a growing odometer no longer needs slide out, the width going with them on the wire")
    func shrinkingWidth() throws {
        var tile = try OdometerTile(
            tileID: "sales", configuration: OdometerConfiguration(maxDuration: 3), value: 1234, backlog: 8, at: 0)
        try tile.apply(.value(5, interval: 2, animated: true), at: 0)
        #expect(tile.queue.state(at: 1).digits.count == 4 && !tile.encodedState(at: 1).contains("width"))
        #expect(tile.encodedState(at: 1.9).contains(#""width":"#))
        #expect(tile.encodedState(at: 2) == #"{"d":[5000],"negative":false,"target":5}"#)
    }

    @Test("a value too wide for its columns is refused and changes nothing")
    func tooWideIsRefused() throws {
        var tile = try makeTile()
        #expect(throws: AnimationError.tooWide) { try tile.apply(.value(1000, interval: nil, animated: true), at: 0) }
        #expect(tile.encodedState(at: 5) == #"{"d":[5000,2000,1000],"negative":false,"target":521}"#)
    }

    @Test("wheel and carousel changes do not touch an odometer")
    func otherChangesAreIgnored() throws {
        var tile = try makeTile()
        try tile.apply(.wheelIndex(2), at: 0)
        try tile.apply(.carousel(.next, page: nil), at: 0)
        #expect(tile.nextMotion(after: 0) == nil)
    }
}
