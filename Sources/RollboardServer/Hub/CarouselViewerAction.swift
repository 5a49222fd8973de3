/// What a carousel can be told to do.
enum CarouselViewerAction: String, Sendable, Equatable, CaseIterable {
    case hold, release, next, prev, goto
}
