public import RollboardFetch

/// A scheduled source from `config/sources/ID.yaml`: an upstream polled every `every` seconds whose answer gives
/// values for metrics, committed like posts (docs/sources.md).
public struct SourceConfiguration: Sendable, Equatable {
    /// What a source setting is when its file leaves it out, written here only.
    public enum Defaults {
        public static let every = 30.0
        /// Or `every`, when that is shorter.
        public static let timeout = 10.0
        public static let method = "GET"
    }

    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Any JSON document; each metric is a JSON Pointer (RFC 6901) to a number in it.
        case json
        /// A Prometheus server: each metric is an instant query (`/api/v1/query`) with one number for its answer.
        case prometheus
    }

    /// Where one metric's value comes from in the answer.
    public struct Metric: Sendable, Equatable {
        /// The metric id, shown by an odometer or counter tile.
        public var metric: String
        /// `json`: the JSON Pointer to its number (`""` is the whole document).
        public var pointer: String?
        /// `prometheus`: the PromQL instant query.
        public var query: String?
    }

    public var id: String
    public var kind: Kind
    /// The upstream: the document (`json`) or the Prometheus server's base URL (`prometheus`).
    public var url: String
    /// `json` only; Prometheus queries are `GET`s.
    public var method: String
    /// Header values may name environment variables as `${NAME}`; they are read at each fetch and never shown.
    public var headers: [SourceHeader]
    /// Sent with a `POST` (`json` only).
    public var body: String?
    /// Seconds between fetches.
    public var every: Double
    /// Seconds one fetch may take.
    public var timeout: Double
    /// The largest answer taken, in bytes.
    public var maxBytes: Int
    /// PEM certificates to trust for HTTPS instead of the system's.
    public var caFile: String?
    /// Which redirects are followed (`redirects:`); headers go to the URL's own host only, whichever.
    public var redirects: FetchRedirects = FetchRequest.Defaults.redirects
    public var metrics: [Metric]
    /// The file it came from, as named in problems.
    public var file: String

    /// The ids of the metrics it feeds.
    public var metricIDs: [String] { metrics.map(\.metric) }
}
