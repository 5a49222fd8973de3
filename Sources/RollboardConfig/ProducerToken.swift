
/// A bearer token that may write values, optionally only for some metric ids.
public struct ProducerToken: Sendable, Equatable {
    /// The secret itself.
    public var token: String
    /// The ids (metrics, wheels, carousels, texts) this token may write; `nil` means every id.
    public var metrics: Set<String>?

    public init(token: String, metrics: Set<String>? = nil) {
        self.token = token
        self.metrics = metrics
    }

    /// Whether this token may write `id`.
    public func allows(_ id: String) -> Bool {
        metrics?.contains(id) ?? true
    }
}
