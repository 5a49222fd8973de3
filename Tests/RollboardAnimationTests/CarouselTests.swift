import RollboardTestSupport
import Testing
@testable import RollboardAnimation

@Suite("Carousel")
struct CarouselTests {
    let fourSlides = try! Carousel(configuration: CarouselConfiguration(slides: 4))

    @Test("it advances every 2 s, sliding forward from the last slide to the first", arguments: [
        (0.0, 0.0, 0), (1.99, 0, 0), (2.075, 0.1291619310473198, 1), (2.3, 1, 1), (4.5, 2, 2),
        (6.3, 3, 3), (8.15, 3.5, 0), (8.3, 0, 0), (10, 0, 1),
    ])
    func advances(time: Double, position: Double, page: Int) {
        let state = fourSlides.state(at: time)
        #expect(isClose(state.position, position))
        #expect(state.page == page)
    }

    @Test("every automatic page change is an event")
    func events() {
        let events = fourSlides.pageChanges(after: 0, through: 10)
        #expect(events.map(\.time) == [2, 4, 6, 8, 10])
        #expect(events.map(\.page) == [1, 2, 3, 0, 1])
        #expect(events.allSatisfy { $0.cause == .timer })
        #expect(fourSlides.pageChanges(after: 2, through: 3.9).isEmpty)
    }

    @Test("holding pauses it and releasing resumes after a full interval")
    func holdAndRelease() {
        var carousel = fourSlides
        carousel.hold(at: 2.1)
        #expect(carousel.state(at: 2.31).position == 1)      // the running slide finishes
        #expect(carousel.state(at: 10) == CarouselState(position: 1, page: 1))
        #expect(carousel.pageChanges(after: 2.1, through: 10).isEmpty)
        #expect(carousel.isAtRest(at: 10))
        carousel.release(at: 10)
        #expect(carousel.state(at: 11.99).page == 1)
        #expect(carousel.state(at: 12).page == 2)
        #expect(fourSlides.state(at: 10).page == 1)           // another viewer's carousel went on
    }

    @Test("it tells when it next moves: now while sliding, the next advance while still, never while held", arguments: [
        (0.5, 2.0), (1.99, 2.0), (2.1, 2.1), (2.31, 4.0), (8.2, 8.2), (9.0, 10.0),
    ])
    func nextMotion(time: Double, expected: Double) {
        #expect(fourSlides.nextMotion(after: time) == expected)
    }

    @Test("a held carousel rests once its transition ends, and moves again a full interval after release")
    func nextMotionWhileHeld() {
        var carousel = fourSlides
        carousel.hold(at: 2.1)
        #expect(carousel.nextMotion(after: 2.2) == 2.2)
        #expect(carousel.nextMotion(after: 5) == nil)
        carousel.release(at: 5)
        #expect(carousel.nextMotion(after: 5.5) == 7)
    }

    @Test("next, previous and go-to move at once and report the page change")
    func commands() throws {
        var carousel = fourSlides
        #expect(carousel.next(at: 3) == CarouselEvent(time: 3, page: 2, cause: .next))
        #expect(carousel.state(at: 4.99).page == 2)
        #expect(carousel.state(at: 5).page == 3)
        var backwards = fourSlides
        #expect(backwards.previous(at: 0.5)?.page == 3)
        #expect(isClose(backwards.state(at: 0.65).position, 3.5))   // wraps back from 0 to 3
        var jumping = fourSlides
        #expect(try jumping.go(to: 2, at: 1)?.page == 2)
        #expect(isClose(jumping.state(at: 1.15).position, 1))       // 0 + 2 × easeInOut(½)
        #expect(try jumping.go(to: 2, at: 1.5) == nil)
        #expect(throws: AnimationError.outOfRange) { try jumping.go(to: 4, at: 2) }
    }

    @Test("a single slide never moves")
    func singleSlide() throws {
        let carousel = try Carousel(configuration: CarouselConfiguration(slides: 1))
        #expect(carousel.pageChanges(after: 0, through: 100).isEmpty)
        #expect(carousel.state(at: 100) == CarouselState(position: 0, page: 0))
        #expect(carousel.isAtRest(at: 1))
    }

    @Test("configurations outside the allowed ranges are refused", arguments: [
        CarouselConfiguration(slides: 0), CarouselConfiguration(slides: 3, interval: 0),
        CarouselConfiguration(slides: 3, interval: 1, transition: 2), CarouselConfiguration(slides: 3, interval: .nan),
    ])
    func refuses(configuration: CarouselConfiguration) {
        #expect(throws: AnimationError.invalidConfiguration) { try Carousel(configuration: configuration) }
    }

    @Test("when its slides shrink below the page shown it moves to the new last slide, and advances on schedule")
    func shrinkingClampsThePage() throws {
        var carousel = fourSlides
        try carousel.setSlideCount(2, at: 6.3)
        #expect(carousel.configuration.slides == 2)
        #expect(carousel.state(at: 6.3) == CarouselState(position: 1, page: 1))
        #expect(carousel.state(at: 7.99) == CarouselState(position: 1, page: 1))
        #expect(carousel.state(at: 8.3) == CarouselState(position: 0, page: 0))
    }

    @Test("when its slides grow it stays on its page, and a transition under way ends there at once")
    func growingKeepsThePage() throws {
        var carousel = fourSlides
        try carousel.setSlideCount(6, at: 2.075)
        #expect(carousel.state(at: 2.075) == CarouselState(position: 1, page: 1))
        #expect(carousel.nextMotion(after: 2.1) == 4)
        #expect(carousel.state(at: 4.3) == CarouselState(position: 2, page: 2))
        #expect(carousel.state(at: 10.3) == CarouselState(position: 5, page: 5))
    }

    @Test("a single slide that becomes three first advances a full interval after the change")
    func singleSlideStartsAdvancing() throws {
        var carousel = try Carousel(configuration: CarouselConfiguration(slides: 1))
        #expect(carousel.nextMotion(after: 100) == nil)
        try carousel.setSlideCount(3, at: 100)
        #expect(carousel.state(at: 101.99).page == 0)
        #expect(isClose(carousel.state(at: 102.3).position, 1))
        #expect(carousel.state(at: 102.3).page == 1)
    }

    @Test("a slide count of zero is refused and changes nothing")
    func zeroSlidesRefused() {
        var carousel = fourSlides
        #expect(throws: AnimationError.invalidConfiguration) { try carousel.setSlideCount(0, at: 3) }
        #expect(carousel.configuration.slides == 4)
        #expect(carousel.state(at: 4.5) == fourSlides.state(at: 4.5))
    }

    @Test("over random commands the position stays in [0, slides) and the page in range")
    func randomCommands() throws {
        var generator = SplitMix64(seed: 5)
        var carousel = try Carousel(configuration: CarouselConfiguration(slides: 5, interval: 1.5, transition: 0.4))
        var time = 0.0
        for _ in 0..<500 {
            time += Double.random(in: 0...1, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: carousel.hold(at: time)
            case 1: carousel.release(at: time)
            case 2: carousel.next(at: time)
            case 3: carousel.previous(at: time)
            case 4: try carousel.go(to: Int.random(in: 0..<5, using: &generator), at: time)
            default: break
            }
            for step in 0..<5 {
                let state = carousel.state(at: time + Double(step) * 0.1)
                #expect(state.position >= 0 && state.position < 5)
                #expect((0..<5).contains(state.page))
            }
        }
    }

    @Test("a shifted schedule keeps only its place in the turn, applied backwards: the slide the shifted schedule shows now",
          arguments: [(-10.0, 1), (10.0, 2), (-40.0, 1), (30.0, 0), (24.0, 1)])
    func shiftedSchedule(seconds: Double, page: Int) throws {
        var carousel = try Carousel(configuration: CarouselConfiguration(slides: 3, interval: 10, transition: 0.5), startingAt: 0)
        #expect(carousel.state(at: 5).page == 0)
        carousel.shiftSchedule(by: seconds)
        #expect(carousel.state(at: 5).page == page)
        #expect(carousel.state(at: 5).position == Double(page), "at rest, not waiting for a schedule in its future")
        let next = try #require(carousel.nextMotion(after: 5))
        #expect(next > 5 && next <= 15)
    }
}
