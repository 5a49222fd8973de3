package import RollboardConfig
import RollboardPostgres
import Synchronization

/// One fetch of a `postgres` source, blocking the calling thread (a source's fetch queue, or `sources check`): every
/// query of the source in one read-only transaction with a statement timeout, each through a cursor that fetches at
/// most its row cap + 1 rows. The connection is kept for the next fetch; one that failed is dropped and opened again
/// at the next fetch, which the poller retries with its backoff (1 s, 2 s, 4 s… up to the period).
enum SourcePostgres {
    /// The connection each source keeps between fetches (with the dsn it was opened with), taken out while a fetch
    /// uses it: a connection is used by one thread at a time.
    private static let kept = Mutex<[String: (dsn: String, connection: PostgresConnection)]>([:])

    static func perform(_ source: SourceConfiguration, environment: (String) -> String?) throws(SourceFailure)
        -> SourceValues
    {
        guard let variable = source.dsnVariable else { throw .database("no dsn") }
        guard let dsn = environment(variable) else { throw .missingVariable(variable) }
        let begin = "BEGIN; SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = \(Int((source.timeout * 1000).rounded()))"
        var (connection, kept) = try take(source.id, dsn: dsn, timeout: source.timeout)
        var transaction = Transaction(connection: connection, timeout: source.timeout)
        do {
            try transaction.run(begin, single: false, target: source.id)
        } catch {
            // A kept connection the database closed since (a restart, a failover): one new one at once, rather than a
            // failure and a retry later.
            guard kept, !connection.isOpen else { throw error }
            (connection, kept) = try take(source.id, dsn: dsn, timeout: source.timeout)
            transaction = Transaction(connection: connection, timeout: source.timeout)
            try transaction.run(begin, single: false, target: source.id)
        }
        defer { give(source.id, dsn: dsn, connection) }
        do {
            var values = SourceValues()
            for metric in source.metrics {
                let rows = try transaction.rows(metric.query ?? "", cap: PostgresAnswer.metricRowCap, target: metric.metric)
                values.metrics[metric.metric] = try PostgresAnswer.metricValue(rows, metric: metric.metric)
            }
            for board in source.leaderboards {
                let rows = try transaction.rows(board.query ?? "", cap: source.maxRows, target: board.leaderboard)
                values.leaderboards[board.leaderboard] = try PostgresAnswer.leaderboard(
                    rows, board: board.leaderboard, cap: source.maxRows)
            }
            try transaction.run("COMMIT", single: true, target: source.id)
            return values
        } catch {
            try? transaction.run("ROLLBACK", single: true, target: source.id)
            throw error
        }
    }

    /// Closes the connection `source` keeps (it stopped, or is polled elsewhere now).
    static func release(_ source: String) {
        let removed = kept.withLock { $0.removeValue(forKey: source) }
        removed?.connection.close()
    }

    /// The source's kept connection to `dsn` (`kept`: true), or a new one.
    private static func take(_ source: String, dsn: String, timeout: Double) throws(SourceFailure)
        -> (connection: PostgresConnection, kept: Bool)
    {
        let found = kept.withLock { $0.removeValue(forKey: source) }
        if let found, found.dsn == dsn, found.connection.isOpen { return (found.connection, true) }
        found?.connection.close()
        do {
            return (try PostgresConnection(dsn: dsn, timeout: timeout + SourceConfiguration.Defaults.databaseGrace), false)
        } catch {
            throw .database(error.description)
        }
    }

    /// Keeps `connection` for the next fetch while it is open (one source keeps one).
    private static func give(_ source: String, dsn: String, _ connection: PostgresConnection) {
        guard connection.isOpen else { return connection.close() }
        let extra = kept.withLock { kept -> PostgresConnection? in
            if kept[source] != nil { return connection }
            kept[source] = (dsn, connection)
            return nil
        }
        extra?.close()
    }

    /// The statements of one fetch on one connection, each bounded by the statement timeout plus a grace.
    private struct Transaction {
        let connection: PostgresConnection
        let timeout: Double

        /// The rows of `query` (one statement, without a trailing `;`) through a cursor: at most `cap` + 1.
        func rows(_ query: String, cap: Int, target: String) throws(SourceFailure) -> PostgresRows {
            var statement = Substring(query)
            while let last = statement.last, last.isWhitespace || last == ";" { statement = statement.dropLast() }
            try run("DECLARE rollboard_rows NO SCROLL CURSOR FOR " + statement, single: true, target: target)
            let rows = try run("FETCH FORWARD \(cap + 1) FROM rollboard_rows", single: true, target: target)
            try run("CLOSE rollboard_rows", single: true, target: target)
            return rows
        }

        @discardableResult
        func run(_ sql: String, single: Bool, target: String) throws(SourceFailure) -> PostgresRows {
            do {
                let deadline = PostgresConnection.now() + timeout + SourceConfiguration.Defaults.databaseGrace
                return try connection.execute(sql, single: single, deadline: deadline, timeout: timeout)
            } catch {
                switch error {
                case .statement, .timedOut: throw .query(target: target, error.description)
                case .connect, .connectionLost: throw .database(error.description)
                }
            }
        }
    }
}
