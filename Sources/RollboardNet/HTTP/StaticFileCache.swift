import Synchronization

/// File bodies kept in memory between requests, keyed by resolved path and valid only while the file keeps the
/// size and modification time they were read under. When the total would exceed the budget, the least recently
/// used bodies go first; a body larger than the whole budget is never kept. Safe from any queue.
final class StaticFileCache: Sendable {
    /// What `stat` said about the file when its body was read.
    struct Validator: Equatable {
        var size: Int
        var modificationSeconds: Int64
        var modificationNanoseconds: Int64
    }

    private struct Entry {
        var validator: Validator
        var body: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var totalBytes = 0
        var uses: UInt64 = 0
    }

    /// The most body bytes kept at once; 0 keeps none.
    let capacityBytes: Int
    private let state = Mutex(State())
    private let reads = Atomic<Int>(0)

    init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// How many times a body was read from disk rather than memory.
    var diskReads: Int { reads.load(ordering: .relaxed) }

    /// The body of the file at `path` as of `validator`: from memory when cached under the same validator,
    /// otherwise from `read` (kept when it has the size the validator promised and fits the budget).
    func body(at path: String, validator: Validator, read: () -> [UInt8]?) -> [UInt8]? {
        let cached: [UInt8]? = state.withLock { state in
            guard let entry = state.entries[path] else { return nil }
            guard entry.validator == validator else {
                state.entries[path] = nil
                state.totalBytes -= entry.body.count
                return nil
            }
            state.uses += 1
            state.entries[path]?.lastUse = state.uses
            return entry.body
        }
        if let cached { return cached }
        reads.add(1, ordering: .relaxed)
        guard let body = read() else { return nil }
        if body.count == validator.size, body.count <= capacityBytes {
            keep(body, at: path, validator: validator)
        }
        return body
    }

    private func keep(_ body: [UInt8], at path: String, validator: Validator) {
        state.withLock { state in
            if let previous = state.entries.removeValue(forKey: path) {
                state.totalBytes -= previous.body.count
            }
            while state.totalBytes + body.count > capacityBytes,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                state.totalBytes -= oldest.value.body.count
            }
            state.uses += 1
            state.entries[path] = Entry(validator: validator, body: body, lastUse: state.uses)
            state.totalBytes += body.count
        }
    }
}
