import RollboardAnimation
import Testing

@testable import RollboardServer

@Suite("Carousel tile")
struct CarouselTileTests {
    private func makeTile() throws -> CarouselTile {
        try CarouselTile(tileID: "news", configuration: CarouselConfiguration(slides: 4, interval: 2), at: 0)
    }

    @Test("it advances by itself and sleeps between slides")
    func advancesAndSleeps() throws {
        let tile = try makeTile()
        #expect(tile.encodedState(at: 1) == #"{"p":0,"page":0}"#)
        #expect(tile.nextMotion(after: 1) == 2)
        #expect(tile.encodedState(at: 2.5) == #"{"p":1000,"page":1}"#)
    }

    @Test("a viewer's hold stops it for that viewer only, and goto moves it")
    func viewerActions() throws {
        let shared = try makeTile()
        var mine = shared
        mine.apply(viewerAction: .hold, page: nil, at: 1)
        #expect(mine.nextMotion(after: 1) == nil)
        #expect(mine.encodedState(at: 10) == #"{"p":0,"page":0}"#)
        #expect(shared.encodedState(at: 10.5) == #"{"p":1000,"page":1}"#)
        mine.apply(viewerAction: .goto, page: 3, at: 10)
        #expect(mine.encodedState(at: 11) == #"{"p":3000,"page":3}"#)
    }

    @Test("a producer's command reaches the carousel; a page out of range is refused")
    func producerCommands() throws {
        var tile = try makeTile()
        try tile.apply(.carousel(.next, page: nil), at: 0.5)
        #expect(tile.encodedState(at: 1) == #"{"p":1000,"page":1}"#)
        #expect(throws: AnimationError.self) { try tile.apply(.carousel(.goto, page: 9), at: 1) }
    }
}
