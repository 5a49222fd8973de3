package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
import RollboardNet
package import RollboardStore

/// A carousel tile as one screen sees it: its own slides, which that viewer may hold or move, and the slides a
/// producer set, which replace the configured ones on every screen.
///
/// Its rotation is turned by the wall clock (every node shows the same slide at the same moment): when the wall clock
/// is stepped, a carousel that still turns on that schedule (no producer's or viewer's command moved it) takes the
/// new phase (``wallOffset``).
struct CarouselTile: WallClockTile {
    let tileID: String
    private(set) var carousel: Carousel
    /// The producer's slides as the STATE's `slides` member, encoded once; `nil` while the configured slides show.
    private(set) var slides: String?
    /// When a producer last set the slides (on the hub's clock).
    private var slidesChangedAt = -Double.infinity
    /// Whether the rotation still follows the wall clock's schedule: until a command (a producer's or a viewer's)
    /// starts a schedule of its own.
    private(set) var turnsWithWallClock: Bool
    /// Wall-clock seconds since 1970 at hub time 0, as the rotation's schedule was laid out; setting another moves
    /// the schedule by the difference while the rotation follows the wall clock.
    var wallOffset: Double {
        didSet {
            guard turnsWithWallClock else { return }
            carousel.shiftSchedule(by: oldValue - wallOffset)
        }
    }

    /// A carousel showing `slides` when a producer set some, else the configured number of slides; its rotation
    /// starts at `time`. With a `wallOffset`, `time` is where the wall clock's schedule put it, and the tile follows
    /// that schedule when the wall clock is stepped.
    init(
        tileID: String, configuration: CarouselConfiguration, slides: [ProducerSlide]? = nil, wallOffset: Double? = nil,
        at time: Double
    ) throws {
        self.tileID = tileID
        self.wallOffset = wallOffset ?? 0
        turnsWithWallClock = wallOffset != nil
        var configuration = configuration
        if let slides {
            configuration.slides = slides.count
            self.slides = Self.json(slides)
        }
        carousel = try Carousel(configuration: configuration, startingAt: time)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        switch change {
        case .carousel(let action, let page):
            try perform(action, page: page, at: time)
            turnsWithWallClock = false
        case .slides(let list):
            try carousel.setSlideCount(list.count, at: time)
            slides = Self.json(list)
            slidesChangedAt = time
        case .value, .wheelProgress, .wheelIndex, .text, .leaderboard:
            return
        }
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {
        try? perform(viewerAction, page: page, at: time)
        turnsWithWallClock = false
    }

    private mutating func perform(_ action: CarouselViewerAction, page: Int?, at time: Double) throws {
        switch action {
        case .hold: carousel.hold(at: time)
        case .release: carousel.release(at: time)
        case .next: carousel.next(at: time)
        case .prev: carousel.previous(at: time)
        case .goto: _ = try carousel.go(to: page ?? 0, at: time)
        }
    }

    func state(at time: Double) -> TileState? {
        let state = carousel.state(at: time)
        let slides = Int32(clamping: carousel.configuration.slides * 1000)
        return TileState(members: [
            .init("p", "\(TileState.thousandths(state.position, modulo: slides))"), .init("page", "\(state.page)"),
        ] + slidesMembers)
    }

    func nextMotion(after time: Double) -> Double? {
        let motions = [carousel.nextMotion(after: time), ChangeWindow.nextMotion(after: time, changedAt: slidesChangedAt)]
        return motions.compactMap { $0 }.min()
    }

    /// On the page the dots show: a slide change is a jump, never a slide across.
    func calmState(at time: Double) -> TileState? {
        let page = carousel.state(at: time).page
        return TileState(members: [.init("p", "\(page * 1000)"), .init("page", "\(page)")] + slidesMembers)
    }

    func nextCalmMotion(after time: Double) -> Double? {
        carousel.nextMotion(after: time)
    }

    /// `slides` while a producer's slides show. Every state shares the one encoded text, so comparing states to find
    /// what changed costs nothing for it.
    private var slidesMembers: [TileState.Member] {
        slides.map { [TileState.Member("slides", $0)] } ?? []
    }

    /// `[{"text":…,"color":…},{"image":…,"alt":…,"color":…},…]`, without the members a slide does not have.
    private static func json(_ slides: [ProducerSlide]) -> String {
        let items = slides.map { slide -> String in
            var members: [String] = []
            switch slide {
            case .text(let text, _):
                members.append("\"text\":" + JSONText.quoted(text))
            case .image(let url, let alt, _):
                members.append("\"image\":" + JSONText.quoted(url))
                if let alt { members.append("\"alt\":" + JSONText.quoted(alt)) }
            }
            if let color = slide.color { members.append("\"color\":" + JSONText.quoted(color)) }
            return "{" + members.joined(separator: ",") + "}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}
