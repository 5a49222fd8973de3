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
        /// The most rows a `postgres` leaderboard query (or a `json` leaderboard's items) may give (`maxRows:`).
        public static let maxRows = 100
        /// Seconds a `postgres` statement may overrun its `statement_timeout` before the client gives up on the
        /// connection (a database that stopped answering).
        public static let databaseGrace = 2.0
    }

    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Any JSON document; each metric is a JSON Pointer (RFC 6901) to a number in it.
        case json
        /// A Prometheus server: each metric is an instant query (`/api/v1/query`) with one number for its answer.
        case prometheus
        /// A PostgreSQL database (libpq): each metric is a read-only query returning one row with one number, each
        /// leaderboard a query returning (name, score) rows.
        case postgres
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

    /// Where one leaderboard's entries come from in the answer.
    public struct Leaderboard: Sendable, Equatable {
        /// The leaderboard id, shown by a leaderboard tile.
        public var leaderboard: String
        /// `postgres`: the query returning (name, score) rows.
        public var query: String?
        /// `json`: the JSON Pointer to the array of items, and the pointers, within each item, to its name (a string
        /// or a number) and its score (a number).
        public var items: String?, name: String?, score: String?
    }

    public var id: String
    public var kind: Kind
    /// The upstream: the document (`json`) or the Prometheus server's base URL (`prometheus`); empty for `postgres`.
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
    /// The leaderboards it feeds (`json` and `postgres`), each replaced whole by every fetch.
    public var leaderboards: [Leaderboard] = []
    /// `postgres`: the environment variable holding the libpq connection string (`dsn: ${NAME}`).
    public var dsnVariable: String?
    /// The row cap of a leaderboard (`maxRows:`): more rows is a failure.
    public var maxRows: Int = Defaults.maxRows
    /// The file it came from, as named in problems.
    public var file: String

    /// The ids of the metrics it feeds.
    public var metricIDs: [String] { metrics.map(\.metric) }

    /// The ids of the leaderboards it feeds.
    public var leaderboardIDs: [String] { leaderboards.map(\.leaderboard) }
}
