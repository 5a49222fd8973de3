package import RollboardCore

/// Why a source's fetch gave no value for a metric; its description is what the wall, the admin API and the log
/// show, short and without the URL, a header or the answer's text (they may hold secrets).
public enum SourceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The transfer failed (timeout, too large, refused redirect, certificate…): libcurl's reason, classified.
    case transfer(String)
    /// The upstream answered with a status other than 2xx.
    case status(Int)
    /// A header names an environment variable that is not set.
    case missingVariable(String)
    case invalidUTF8
    case invalidJSON
    /// A metric's JSON Pointer finds nothing in the document.
    case pointerFindsNothing(metric: String, pointer: String)
    /// A metric's JSON Pointer finds something that is not a number (its JSON kind: "a string", "null"…).
    case pointerFindsNoNumber(metric: String, pointer: String, kind: String)
    /// A Prometheus sample is not a finite number (its text: "NaN", "+Inf").
    case notANumber(String)
    /// Prometheus answered `"status":"error"` (its `errorType` and its own `error` message, cut to 200
    /// characters), or with no usable `data`.
    case prometheusError(String)
    /// The instant query's answer holds no series.
    case emptyResult
    /// The instant query's answer holds more than one series.
    case manySeries(Int)
    /// The database could not be reached or dropped the connection (libpq's message; never the dsn).
    case database(String)
    /// The database refused a metric's or leaderboard's query, or gave no answer in time (the server's message:
    /// a statement timeout, a write in the read-only transaction…).
    case query(target: String, String)
    /// A metric or leaderboard got an answer of the wrong shape: what it needs, and what came back.
    case resultShape(target: String, expected: String, found: String)
    /// A leaderboard got more rows (or items) than its cap (`maxRows`).
    case tooManyRows(target: String, cap: Int)
    /// The tile cannot show the value (a post would be refused the same way).
    case refused(String)
    /// The change log did not take the value (Redis away, disk full).
    case notCommitted(String)

    public var description: String {
        switch self {
        case .transfer(let reason): reason
        case .status(let status): "upstream answered HTTP \(status)"
        case .missingVariable(let name): "environment variable \(name) is not set"
        case .invalidUTF8: "answer is not UTF-8"
        case .invalidJSON: "answer is not JSON"
        case .pointerFindsNothing(let metric, let pointer):
            "\(metric): nothing at \(pointer.isEmpty ? "the document" : pointer)"
        case .pointerFindsNoNumber(let metric, let pointer, let kind):
            "\(metric): \(pointer.isEmpty ? "the document" : pointer) is \(kind), not a number"
        case .notANumber(let kind): "value is \(kind), not a number"
        case .prometheusError(let type): "Prometheus error: \(type)"
        case .emptyResult: "query found no series"
        case .manySeries(let count): "query found \(count) series, not one"
        case .database(let reason): "database: \(reason)"
        case .query(let target, let reason): "\(target): \(reason)"
        case .resultShape(let target, let expected, let found): "\(target): expected \(expected), got \(found)"
        case .tooManyRows(let target, let cap): "\(target): more than \(cap) rows (maxRows)"
        case .refused(let reason): "refused: \(reason)"
        case .notCommitted(let reason): "not stored: \(reason)"
        }
    }
}
