@testable import RollboardConfig
@testable import RollboardStore

extension MetricStore {
    /// `append`, awaiting its completion.
    func append(_ updates: [MetricUpdate]) async -> Result<[StoredMetric], StoreError> {
        await withCheckedContinuation { continuation in
            append(updates) { continuation.resume(returning: $0) }
        }
    }

    func append(_ id: String, _ value: Double) async throws -> StoredMetric {
        try await append([MetricUpdate(id: id, value: value)]).get()[0]
    }

    func setWheel(_ id: String, _ target: WheelTarget) async -> Result<StoredWheel, StoreError> {
        await withCheckedContinuation { continuation in
            setWheel(id, target: target) { continuation.resume(returning: $0) }
        }
    }

    func setText(_ id: String, _ text: String, color: String? = nil) async throws -> StoredText {
        try await withCheckedContinuation { continuation in
            setText(id, text: text, color: color) { continuation.resume(returning: $0) }
        }.get()
    }

    func setSlides(_ id: String, _ slides: [ProducerSlide]) async throws -> StoredSlides {
        try await withCheckedContinuation { continuation in
            setSlides(id, slides: slides) { continuation.resume(returning: $0) }
        }.get()
    }
}
