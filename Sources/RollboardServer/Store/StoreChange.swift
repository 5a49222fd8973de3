/// A committed change, as the store's subscribers receive it (in sequence order, after it is durable).
public enum StoreChange: Sendable, Equatable {
    /// One batch: all of its metrics, committed together.
    case metrics([StoredMetric])
    case wheel(StoredWheel)
    /// A text tile's new message.
    case text(StoredText)
    /// A carousel's new slides.
    case slides(StoredSlides)
    /// A producer's command to a carousel.
    case carousel(StoredCarouselCommand)
    /// An operator's command to a playlist.
    case playlist(StoredPlaylistCommand)
    /// An operator's command to the screens of a dashboard or playlist.
    case screens(StoredScreenCommand)

    /// The highest sequence number in the change.
    public var lastSeq: UInt64 {
        switch self {
        case .metrics(let metrics): metrics.last?.seq ?? 0
        case .wheel(let wheel): wheel.seq
        case .text(let text): text.seq
        case .slides(let slides): slides.seq
        case .carousel(let command): command.seq
        case .playlist(let command): command.seq
        case .screens(let command): command.seq
        }
    }
}
