/// Why a PostgreSQL connection or statement gave no result. Descriptions are libpq's or the server's own messages
/// (they never hold the password or the connection string), flattened to one line and cut to 200 characters.
public enum PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The connection could not be opened (refused, authentication, TLS, unknown database…).
    case connect(String)
    /// No answer within the client's deadline; the connection is closed.
    case timedOut(seconds: Double)
    /// The server refused the statement: its SQLSTATE and primary message.
    case statement(state: String, message: String)
    /// The connection broke while a statement ran.
    case connectionLost(String)

    public var description: String {
        switch self {
        case .connect(let message): "cannot connect: \(message)"
        case .timedOut(let seconds): "no answer within \(seconds.formatted()) s"
        case .statement(_, let message): message
        case .connectionLost(let message): "connection lost: \(message)"
        }
    }

    /// The SQLSTATE of a refused statement (`57014`: canceled by statement_timeout; `25006`: a write in a
    /// read-only transaction).
    public var state: String? {
        if case .statement(let state, _) = self { state } else { nil }
    }

    /// `message` on one line (control characters as spaces, trimmed), at most 200 characters (`…` when cut).
    static func shown(_ message: String) -> String {
        let flat = message.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let trimmed = String(String(flat).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
        return trimmed.count <= 200 ? trimmed : trimmed.prefix(199) + "…"
    }
}

extension Double {
    fileprivate func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
