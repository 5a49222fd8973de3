
/// What a carousel can be told to do.
package enum CarouselViewerAction: String, Sendable, Equatable, CaseIterable {
    case hold, release, next, prev, goto
}
