import RollboardAnimation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
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

    @Test("a producer's slides replace the configured ones: the state carries them, and keeps the page that still exists")
    func producerSlides() throws {
        var tile = try makeTile()
        try tile.apply(.slides([.text("Welcome", color: nil), .image("https://x.test/a.png", alt: "Lobby", color: "#abc")]), at: 2.5)
        let slides = ##"[{"text":"Welcome"},{"image":"https://x.test/a.png","alt":"Lobby","color":"#abc"}]"##
        #expect(tile.encodedState(at: 2.5) == #"{"p":1000,"page":1,"slides":\#(slides)}"#)
        #expect(tile.calmState(at: 2.5).map(TileState.fullJSON) == #"{"p":1000,"page":1,"slides":\#(slides)}"#)
        #expect(tile.encodedState(at: 4.5) == #"{"p":0,"page":0,"slides":\#(slides)}"#, "two slides now: page 1 wraps to 0")
    }

    @Test("fewer slides than the page shown: it moves to the new last slide at once")
    func shrinkingClampsThePage() throws {
        var tile = try makeTile()
        #expect(tile.encodedState(at: 6.5) == #"{"p":3000,"page":3}"#)
        try tile.apply(.slides([.text("only", color: nil)]), at: 6.5)
        #expect(tile.encodedState(at: 6.5) == #"{"p":0,"page":0,"slides":[{"text":"only"}]}"#)
        #expect(throws: AnimationError.self) { try tile.apply(.carousel(.goto, page: 1), at: 7) }
    }

    @Test("a frame after a slides change carries the slides once; frames that only move carry just the position")
    func slidesOnlyWhenChanged() throws {
        var tile = try makeTile()
        let before = tile.state(at: 1)
        try tile.apply(.slides([.text("a", color: nil), .text("b", color: "#123456")]), at: 1)
        #expect(tile.nextMotion(after: 1) == 1, "a held or resting carousel still shows the change")
        let changed = try #require(TileState.patch(from: before, to: tile.state(at: 1)))
        #expect(changed.text == ##"{"slides":[{"text":"a"},{"text":"b","color":"#123456"}]}"##)
        let moved = TileState.patch(from: changed.state, to: tile.state(at: 2.15))
        #expect(moved?.text.contains("slides") == false)
        #expect(moved?.text.hasPrefix(#"{"p":"#) == true)
    }

    @Test("a carousel started from stored slides shows them from its first state")
    func startsFromStoredSlides() throws {
        let tile = try CarouselTile(
            tileID: "news", configuration: CarouselConfiguration(slides: 4, interval: 2),
            slides: [.text("stored", color: nil), .text("too", color: nil)], at: 0)
        #expect(tile.carousel.configuration.slides == 2)
        #expect(tile.encodedState(at: 0) == #"{"p":0,"page":0,"slides":[{"text":"stored"},{"text":"too"}]}"#)
    }
}
