import CLibPQ
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection, driven with libpq's asynchronous calls so that every wait is a `poll` bounded by a deadline:
/// a database that stops answering costs its caller at most the deadline, never a hung thread. A connection is used
/// by one thread at a time (libpq's rule); a source's fetch queue is that thread.
public final class PostgresConnection: @unchecked Sendable {  // Sendable: handed between fetches, used by one at a time.
    private var handle: OpaquePointer?

    /// Opens a connection to `dsn` (a libpq connection string or URI; `sslmode` and the other TLS settings in it
    /// apply as libpq reads them) within `timeout` seconds (also passed as libpq's `connect_timeout`, which a
    /// `connect_timeout` in the dsn overrides).
    public init(dsn: String, timeout: Double) throws(PostgresError) {
        let deadline = Self.now() + timeout
        // libpq's message for a string it cannot read quotes the string, which may hold the password.
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(dsn, &parseError) else {
            if let parseError { PQfreemem(parseError) }
            throw .connect("libpq cannot read the connection string (its message is not shown: it quotes the string)")
        }
        PQconninfoFree(options)
        let keywords = ["connect_timeout", "dbname"]
        let values = ["\(max(2, Int(timeout.rounded(.up))))", dsn]
        let started: OpaquePointer? = Self.withCStrings(keywords) { keys in
            Self.withCStrings(values) { values in PQconnectStartParams(keys, values, 1) }
        }
        guard let started else { throw .connect("out of memory") }
        handle = started
        guard PQstatus(started) != CONNECTION_BAD else { throw .connect(message()) }
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK {
            switch state {
            case PGRES_POLLING_FAILED: throw .connect(message())
            case PGRES_POLLING_READING: try wait(for: Int16(POLLIN), until: deadline, connecting: true)
            default: try wait(for: Int16(POLLOUT), until: deadline, connecting: true)
            }
            state = PQconnectPoll(started)
        }
    }

    deinit { close() }

    /// Whether the connection is still usable (not closed, not broken).
    public var isOpen: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Runs `sql` and returns the rows of its last result that has rows (none for a command). `single`: one
    /// statement only, sent with the extended protocol (which refuses several statements separated by `;`);
    /// otherwise the simple protocol, for the caller's own statements. A refused statement throws the server's
    /// reason; no answer by `deadline` (seconds on ``now()``) closes the connection and throws `timedOut`.
    public func execute(_ sql: String, single: Bool, deadline: Double, timeout: Double) throws(PostgresError)
        -> PostgresRows
    {
        guard let handle else { throw .connectionLost("closed") }
        let sent = single ? PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 0) : PQsendQuery(handle, sql)
        guard sent == 1 else { throw failed(.connectionLost(message())) }
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            if flushed < 0 { throw failed(.connectionLost(message())) }
            try wait(for: Int16(POLLIN | POLLOUT), until: deadline, timeout: timeout)
            guard PQconsumeInput(handle) == 1 else { throw failed(.connectionLost(message())) }
        }
        var rows = PostgresRows(columns: [], rows: [])
        var refusal: PostgresError?
        while true {
            while PQisBusy(handle) == 1 {
                try wait(for: Int16(POLLIN), until: deadline, timeout: timeout)
                guard PQconsumeInput(handle) == 1 else { throw failed(.connectionLost(message())) }
            }
            guard let result = PQgetResult(handle) else { break }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK: rows = Self.rows(of: result)
            case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: break
            default:
                if refusal == nil {
                    refusal = .statement(
                        state: Self.field(result, "C") ?? "",
                        message: PostgresError.shown(Self.field(result, "M") ?? message()))
                }
            }
        }
        if let refusal { throw refusal }
        return rows
    }

    /// Seconds on the monotonic clock, for deadlines.
    public static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Waits until libpq's socket is ready for `events`, or throws (closing the connection) once `deadline` passed.
    private func wait(for events: Int16, until deadline: Double, timeout: Double = 0, connecting: Bool = false)
        throws(PostgresError)
    {
        guard let handle else { throw .connectionLost("closed") }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw failed(.connectionLost(message())) }
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else {
                throw failed(connecting ? .connect("no answer in time") : .timedOut(seconds: timeout))
            }
            let ready = CLibPQ_poll(socket, events, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw failed(.connectionLost("poll failed")) }
        }
    }

    /// Closes the connection (its state is unknown after a timeout or a broken read) and returns `error`.
    private func failed(_ error: PostgresError) -> PostgresError {
        close()
        return error
    }

    /// libpq's last message for the connection, on one line.
    private func message() -> String {
        guard let handle, let text = PQerrorMessage(handle) else { return "unknown error" }
        let shown = PostgresError.shown(String(cString: text))
        return shown.isEmpty ? "unknown error" : shown
    }

    private static func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let ascii = code.asciiValue, let text = PQresultErrorField(result, Int32(ascii)) else { return nil }
        return String(cString: text)
    }

    private static func rows(of result: OpaquePointer) -> PostgresRows {
        let columns = (0..<PQnfields(result)).map { index in
            PostgresRows.Column(
                name: PQfname(result, index).map { String(cString: $0) } ?? "?",
                isNumber: PostgresRows.numberTypes.contains(UInt32(PQftype(result, index))))
        }
        let rows = (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column -> String? in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
        return PostgresRows(columns: columns, rows: rows)
    }

    /// `strings` as a NULL-terminated array of C strings, for libpq's keyword and value arrays.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
