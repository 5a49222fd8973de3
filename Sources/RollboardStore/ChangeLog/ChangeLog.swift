public import RollboardConfig

/// The one pipe every change goes through: values, wheel targets, texts, slides, carousel, playlist and screen
/// commands and viewer keys are each one ``StoreChange``, given the next numbers of one sequence by
/// ``commit(_:completion:)``, made durable, and then handed to every subscriber in that order.
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

    /// Commits `change` durably as one atomic change: the log numbers its parts (`change` counts them from 0: a batch
    /// of n metrics holds 0 to n − 1) with the next numbers of its one sequence and stamps them with the commit time;
    /// `completion` gets the change as committed once it is durable, or why it was refused.
    func commit(_ change: StoreChange, completion: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void)

    /// Commits a metric batch of values and increments, with idempotency keys, as one change in the log's own order:
    /// an increment's total counts from the metric's latest value as the log numbers the change (so nodes taking
    /// increments for one metric agree on the total), and an `Idempotency-Key` or `eventId` the log remembers from the
    /// last day answers with its earlier commit and commits nothing again. `completion` gets each item as committed
    /// (or remembered) once durable, or why the batch was refused (nothing committed).
    func commitMetrics(
        _ request: MetricCommitRequest,
        completion: @escaping @Sendable (Result<MetricCommitOutcome, MetricCommitError>) -> Void)

    /// Applies the request's edit to its leaderboard's board as this log's order leaves it and commits the resulting
    /// whole board (so concurrent increments, on this node or others, add up exactly); `completion` gets it once
    /// durable, the board its `Idempotency-Key` committed within the last day (nothing applied), or the refusal (more
    /// entries than its limit, a score its rule refuses, a key used for another request) or why the log could not
    /// commit.
    func commitLeaderboard(
        _ request: LeaderboardCommitRequest,
        completion: @escaping @Sendable (Result<LeaderboardCommitOutcome, LeaderboardCommitError>) -> Void)

    /// Registers `handler` for every change committed from now on, in sequence order. It should hand work off
    /// quickly.
    func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void)

    /// Registers `observer` for whether changes from the log reach this node: `false` while they cannot (Redis out
    /// of reach), `true` again once it caught up. The embedded journal never calls it.
    func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void)

    /// Registers `observer` for the seconds every durable commit took.
    func observeCommits(_ observer: @escaping @Sendable (Double) -> Void)

    /// Begins: call once every subscriber and observer is registered. Returns at once; a log that must reach
    /// something first (Redis) refuses changes and says its feed is not live until it did.
    func start()

    /// Refuses later changes (`StoreError.closed`) and stops once the changes in flight are answered; `completion` is
    /// called then, on any queue. Nothing waits meanwhile.
    func close(completion: @escaping @Sendable () -> Void)
}

extension ChangeLog {
    /// The embedded journal opens when it is built: nothing to start.
    public func start() {}

    /// Commits `updates` as one atomic change; `completion` gets each update's stored form once it is durable.
    public func append(
        _ updates: [MetricUpdate], completion: @escaping @Sendable (Result<[StoredMetric], StoreError>) -> Void
    ) {
        precondition(!updates.isEmpty, "append needs at least one update")
        let metrics = updates.enumerated().map { offset, update in
            StoredMetric(
                id: update.id, value: update.value, seq: UInt64(offset), updatedAt: 0, interval: update.interval,
                animated: update.animated, policy: update.policy)
        }
        commit(.metrics(metrics), completion) { if case .metrics(let metrics) = $0 { metrics } else { nil } }
    }

    /// Commits a wheel's new target.
    public func setWheel(
        _ id: String, target: WheelTarget, completion: @escaping @Sendable (Result<StoredWheel, StoreError>) -> Void
    ) {
        commit(.wheel(StoredWheel(id: id, target: target, seq: 0, updatedAt: 0)), completion) {
            if case .wheel(let wheel) = $0 { wheel } else { nil }
        }
    }

    /// Commits a text tile's new message.
    public func setText(
        _ id: String, text: String, color: String?,
        completion: @escaping @Sendable (Result<StoredText, StoreError>) -> Void
    ) {
        commit(.text(StoredText(id: id, text: text, color: color, seq: 0, updatedAt: 0)), completion) {
            if case .text(let text) = $0 { text } else { nil }
        }
    }

    /// Commits a carousel's new slides (at least one).
    public func setSlides(
        _ id: String, slides: [ProducerSlide],
        completion: @escaping @Sendable (Result<StoredSlides, StoreError>) -> Void
    ) {
        precondition(!slides.isEmpty, "a carousel needs at least one slide")
        commit(.slides(StoredSlides(id: id, slides: slides, seq: 0, updatedAt: 0)), completion) {
            if case .slides(let slides) = $0 { slides } else { nil }
        }
    }

    /// Commits a producer's command to a carousel: an event, which moves the screens that see it and is not kept in
    /// the snapshot.
    public func commandCarousel(
        _ id: String, action: CarouselAction,
        completion: @escaping @Sendable (Result<StoredCarouselCommand, StoreError>) -> Void
    ) {
        commit(.carousel(StoredCarouselCommand(id: id, action: action, seq: 0, updatedAt: 0)), completion) {
            if case .carousel(let command) = $0 { command } else { nil }
        }
    }

    /// Commits an operator's command to a playlist: an event that every node applies at the moment it was committed.
    public func commandPlaylist(
        _ id: String, action: StoredPlaylistCommand.Action,
        completion: @escaping @Sendable (Result<StoredPlaylistCommand, StoreError>) -> Void
    ) {
        commit(.playlist(StoredPlaylistCommand(id: id, action: action, seq: 0, updatedAt: 0)), completion) {
            if case .playlist(let command) = $0 { command } else { nil }
        }
    }

    /// Commits an operator's command to the screens of a dashboard or playlist (an announcement, a reload): an event
    /// that every node passes on to its screens, not kept in the snapshot.
    public func commandScreens(
        _ action: StoredScreenCommand.Action,
        completion: @escaping @Sendable (Result<StoredScreenCommand, StoreError>) -> Void
    ) {
        commit(.screens(StoredScreenCommand(action: action, seq: 0, updatedAt: 0)), completion) {
            if case .screens(let command) = $0 { command } else { nil }
        }
    }

    /// Commits a viewer key's creation or revocation; every node applies it.
    public func changeViewerKey(
        _ action: StoredViewerKey.Action,
        completion: @escaping @Sendable (Result<StoredViewerKey, StoreError>) -> Void
    ) {
        commit(.viewerKey(StoredViewerKey(action: action, seq: 0, updatedAt: 0)), completion) {
            if case .viewerKey(let change) = $0 { change } else { nil }
        }
    }

    /// `commit`, its result unwrapped to the kind committed.
    private func commit<Stored>(
        _ change: StoreChange, _ completion: @escaping @Sendable (Result<Stored, StoreError>) -> Void,
        unwrap: @escaping @Sendable (StoreChange) -> Stored?
    ) {
        commit(change) { result in
            completion(
                result.map { committed in
                    guard let stored = unwrap(committed) else { preconditionFailure("a commit returns its own kind") }
                    return stored
                })
        }
    }

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

    /// The latest board of leaderboard `id`.
    public func leaderboard(_ id: String) -> StoredLeaderboard? { snapshot.leaderboard(id) }
    /// The latest slides of carousel `id`, if a producer set any.
    public func slides(_ id: String) -> StoredSlides? { snapshot.slides(id) }
    /// The viewer keys in force, oldest first.
    public func viewerKeys() -> [ViewerKey] { snapshot.viewerKeys() }
    /// The highest sequence number seen (0 for an empty log).
    public var lastSeq: UInt64 { snapshot.lastSeq }
}
