package import RollboardStore

/// Whether a source's last fetch gave its values.
public enum SourceHealth: Sendable, Equatable {
    /// Not fetched yet.
    case unknown
    case up
    /// The last fetch failed, for this reason; the last values stay, shown stale.
    case down(String)

    /// `up`, `down` or `unknown`, as the admin API names it.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .up: "up"
        case .down: "down"
        }
    }

    public var reason: String? {
        if case .down(let reason) = self { reason } else { nil }
    }
}
