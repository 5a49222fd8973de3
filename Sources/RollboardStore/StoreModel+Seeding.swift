// What a node holds, as the records that seed a shared log again (a Redis that lost its data).
extension StoreModel {
    /// The latest record of every metric, wheel, text, slide set, viewer key and leaderboard, each with its sequence
    /// number and numbered from 0 (as Redis's latest-values hash keeps it), oldest first. Playlist commands and events
    /// are not among them.
    package var restingRecords: [(seq: UInt64, record: StoreChange)] {
        func resting<T>(
            _ values: some Collection<T>, _ seq: WritableKeyPath<T, UInt64>, _ wrap: (T) -> StoreChange
        ) -> [(seq: UInt64, record: StoreChange)] {
            values.map { value in
                var relative = value
                relative[keyPath: seq] = 0
                return (value[keyPath: seq], wrap(relative))
            }
        }
        let records =
            resting(metrics.values.map(\.current), \.seq) { .metrics([$0]) } + resting(wheels.values, \.seq, StoreChange.wheel)
            + resting(texts.values, \.seq, StoreChange.text) + resting(slides.values, \.seq, StoreChange.slides)
            + resting(viewerKeys.values, \.seq, StoreChange.viewerKey)
            + resting(leaderboards.values, \.seq, StoreChange.leaderboard)
        return records.sorted { $0.seq < $1.seq }
    }
}
