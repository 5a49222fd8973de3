import ArgumentParser
import RollboardAnimation

/// `rollboard simulate carousel`: slides advancing by themselves for a while.
struct SimulateCarousel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carousel",
        abstract: "Auto-advancing slides: {\"t\":…,\"position\":…,\"page\":…} per frame."
    )

    @Option(help: "The number of slides.")
    var slides: Int

    @Option(help: "Seconds between advances.")
    var interval = CarouselConfiguration.defaultInterval

    @Option(help: "Seconds a slide transition takes.")
    var transition = CarouselConfiguration.defaultTransition

    @Option(help: "How many seconds to simulate.")
    var seconds: Double = 10

    @OptionGroup var rate: SimulateRate

    func run() throws {
        try SimulateOutput.validate(seconds: seconds)
        let carousel = try Carousel(configuration: CarouselConfiguration(slides: slides, interval: interval, transition: transition))
        try SimulateOutput.frames(
            fps: rate.fps,
            restTime: { seconds },
            line: { time in
                let state = carousel.state(at: time)
                return "{\"t\":\(SimulateOutput.number(time)),\"position\":\(SimulateOutput.number(state.position)),\"page\":\(state.page)}"
            }
        )
    }
}
