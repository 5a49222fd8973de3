/// The one pipe every producer change goes through: values, wheel targets, texts, slides and carousel commands are
/// each given the next number of one sequence, made durable, and then handed to every subscriber in that order.
///
/// Two implementations: ``MetricStore`` (the embedded journal, one node) and ``RedisChangeLog`` (a Redis Stream that
/// several nodes share). A completion reports success only once the change is durable (fsynced, or acknowledged by
/// Redis); subscribers see committed changes in sequence order.
public protocol ChangeLog: AnyObject, Sendable {
    /// Identifies the log's history: the same across restarts (and, with Redis, on every node), new only when the
    /// data is wiped. 16 hex digits.
    var epoch: String { get }

    /// The values, targets, texts and slides as the changes seen so far left them.
    var snapshot: StoreSnapshot { get }

    /// Why changes are refused right now, or `nil` while they are accepted.
    var failure: StoreError? { get }

    /// Whether the log's changes reach this node (`false` while Redis is out of reach; always `true` for the journal).
    var isFeedLive: Bool { get }

    /// How long the oldest change not yet confirmed has waited, in seconds; `nil` when none waits.
    var unconfirmedSeconds: Double? { get }

    /// Commits `updates` as one atomic change; `completion` gets each update's stored form once it is durable.
    func append(_ updates: [MetricUpdate], completion: @escaping @Sendable (Result<[StoredMetric], StoreError>) -> Void)

    /// Commits a wheel's new target.
    func setWheel(
        _ id: String, target: WheelTarget, completion: @escaping @Sendable (Result<StoredWheel, StoreError>) -> Void)

    /// Commits a text tile's new message.
    func setText(
        _ id: String, text: String, color: String?,
        completion: @escaping @Sendable (Result<StoredText, StoreError>) -> Void)

    /// Commits a carousel's new slides (at least one).
    func setSlides(
        _ id: String, slides: [ProducerSlide],
        completion: @escaping @Sendable (Result<StoredSlides, StoreError>) -> Void)

    /// Commits a producer's command to a carousel: an event, which moves the screens that see it and is not kept in
    /// the snapshot.
    func commandCarousel(
        _ id: String, action: CarouselCommand.Action,
        completion: @escaping @Sendable (Result<StoredCarouselCommand, StoreError>) -> Void)

    /// Commits an operator's command to a playlist: an event that every node applies at the moment it was committed.
    func commandPlaylist(
        _ id: String, action: StoredPlaylistCommand.Action,
        completion: @escaping @Sendable (Result<StoredPlaylistCommand, StoreError>) -> Void)

    /// Commits an operator's command to the screens of a dashboard or playlist (an announcement, a reload): an event
    /// that every node passes on to its screens, not kept in the snapshot.
    func commandScreens(
        _ action: StoredScreenCommand.Action,
        completion: @escaping @Sendable (Result<StoredScreenCommand, StoreError>) -> Void)

    /// Registers `handler` for every change committed from now on, in sequence order. It should hand work off
    /// quickly.
    func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void)

    /// Registers `observer` for whether changes from the log reach this node: `false` while they cannot (Redis out
    /// of reach), `true` again once it caught up. The embedded journal never calls it.
    func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void)

    /// Registers `observer` for the seconds every durable commit took.
    func observeCommits(_ observer: @escaping @Sendable (Double) -> Void)

    /// Waits for changes in flight, then stops; later changes fail with `StoreError.closed`.
    func close()
}

extension ChangeLog {
    /// The latest value of metric `id`.
    public func current(_ id: String) -> StoredMetric? { snapshot.current(id) }
    /// The latest value of every metric, sorted by id.
    public func all() -> [StoredMetric] { snapshot.all() }
    /// Up to the history limit of past values of metric `id`, oldest first, the current one last.
    public func history(_ id: String) -> [MetricHistoryEntry] { snapshot.history(id) }
    /// The latest target of wheel `id`.
    public func wheel(_ id: String) -> StoredWheel? { snapshot.wheel(id) }
    /// The latest target of every wheel, sorted by id.
    public func allWheels() -> [StoredWheel] { snapshot.allWheels() }
    /// The latest message of text tile `id`.
    public func text(_ id: String) -> StoredText? { snapshot.text(id) }
    /// The latest slides of carousel `id`, if a producer set any.
    public func slides(_ id: String) -> StoredSlides? { snapshot.slides(id) }
    /// The highest sequence number seen (0 for an empty log).
    public var lastSeq: UInt64 { snapshot.lastSeq }
}
