import RollboardAnimation

/// A carousel tile as one screen sees it: its own slides, which that viewer may hold or move.
struct CarouselTile: LiveTile {
    let tileID: String
    private(set) var carousel: Carousel

    init(tileID: String, configuration: CarouselConfiguration, at time: Double) throws {
        self.tileID = tileID
        carousel = try Carousel(configuration: configuration, startingAt: time)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .carousel(let action, let page) = change else { return }
        try perform(action, page: page, at: time)
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {
        try? perform(viewerAction, page: page, at: time)
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
        ])
    }

    func nextMotion(after time: Double) -> Double? {
        carousel.nextMotion(after: time)
    }

    /// On the page the dots show: a slide change is a jump, never a slide across.
    func calmState(at time: Double) -> TileState? {
        let page = carousel.state(at: time).page
        return TileState(members: [.init("p", "\(page * 1000)"), .init("page", "\(page)")])
    }

    func nextCalmMotion(after time: Double) -> Double? {
        carousel.nextMotion(after: time)
    }
}
