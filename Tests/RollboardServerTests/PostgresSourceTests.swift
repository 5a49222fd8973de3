import Testing

@testable import RollboardAnimation
@testable import RollboardConfig
@testable import RollboardCore
@testable import RollboardPostgres
@testable import RollboardServer
@testable import RollboardSources

private let dashboardYAML = """
    id: sales
    title: Sales
    grid: {columns: 4, rows: 2}
    tiles:
      - {id: orders, type: counter, metric: orders_today, position: {column: 1, row: 1}}
      - {id: revenue, type: odometer, metric: revenue_today, decimals: 2, position: {column: 2, row: 1}}
      - {id: top, type: leaderboard, metric: top_sellers, position: {column: 3, row: 1}}
    """

private func parse(_ yaml: String) throws(ConfigurationError) -> SourceConfiguration? {
    try RollboardConfiguration.parse(
        serverYAML: nil, dashboards: [("config/dashboards/sales.yaml", dashboardYAML)],
        sources: [("config/sources/sales-db.yaml", yaml)]
    ).sources.first
}

private func problems(_ yaml: String) -> [String] {
    do {
        _ = try parse(yaml)
        return []
    } catch {
        return error.problems
    }
}

private let number = PostgresRows.Column(name: "n", isNumber: true)
private let text = PostgresRows.Column(name: "t", isNumber: false)

/// `type: postgres` sources: what their files say (the dsn only from the environment), and how a query's rows become
/// a metric's value or a leaderboard's entries, every wrong shape a failure naming the metric and what came back.
@Suite("Postgres source")
struct PostgresSourceTests {
    static let example = """
        id: sales-db
        type: postgres
        dsn: ${SALES_DSN}
        every: 10s
        timeout: 3s
        metrics:
          - metric: orders_today
            query: SELECT count(*) FROM orders WHERE placed_at >= current_date
          - leaderboard: top_sellers
            query: SELECT seller, sum(amount) FROM orders GROUP BY seller ORDER BY 2 DESC LIMIT 10
        """

    @Test("the documented example is read: the dsn's variable, a metric's query, a leaderboard's query, the defaults")
    func example() throws {
        let source = try #require(try parse(Self.example))
        #expect(source.kind == .postgres)
        #expect(source.dsnVariable == "SALES_DSN")
        #expect(source.url == "")
        #expect(source.timeout == 3)
        #expect(source.maxRows == SourceConfiguration.Defaults.maxRows)
        #expect(source.metrics.map(\.metric) == ["orders_today"])
        #expect(source.metrics[0].query == "SELECT count(*) FROM orders WHERE placed_at >= current_date")
        #expect(source.leaderboardIDs == ["top_sellers"])
        #expect(source.leaderboards[0].query?.hasPrefix("SELECT seller, sum(amount)") == true)
    }

    @Test(
        "mistakes are named by file and field, and a literal connection string is never repeated",
        arguments: [
            ("type: postgres\ndsn: postgres://app:hunter2@db/sales\nmetrics: [{metric: orders_today, query: SELECT 1}]",
             "config/sources/sales-db.yaml: dsn: must name an environment variable as ${NAME}; the connection string (with its password) does not belong in a file"),
            ("type: postgres\ndsn: host=db password=${PW}\nmetrics: [{metric: orders_today, query: SELECT 1}]",
             "config/sources/sales-db.yaml: dsn: must name an environment variable as ${NAME}; the connection string (with its password) does not belong in a file"),
            ("type: postgres\nmetrics: [{metric: orders_today, query: SELECT 1}]",
             "config/sources/sales-db.yaml: dsn: is required"),
            ("type: postgres\ndsn: ${DSN}\nurl: http://db\nmetrics: [{metric: orders_today, query: SELECT 1}]",
             "config/sources/sales-db.yaml: url: is for json and prometheus sources; a postgres source connects with its dsn"),
            ("type: json\nurl: http://a\ndsn: ${DSN}\nmetrics: [{metric: orders_today, pointer: /a}]",
             "config/sources/sales-db.yaml: dsn: is for postgres sources"),
            ("type: postgres\ndsn: ${DSN}\nmetrics: [{metric: orders_today, query: '  '}]",
             "config/sources/sales-db.yaml: metrics[0].query: must not be empty"),
            ("type: postgres\ndsn: ${DSN}\nmetrics: [{metric: orders_today, query: SELECT 1, pointer: /a}]",
             "config/sources/sales-db.yaml: metrics[0].pointer: unknown key"),
            ("type: postgres\ndsn: ${DSN}\nmetrics: [{leaderboard: orders_today, query: \"SELECT 'a', 1\"}]",
             "config/sources/sales-db.yaml: metrics[0].leaderboard: \"orders_today\" is not shown by a leaderboard tile of any dashboard"),
            ("type: postgres\ndsn: ${DSN}\nmetrics: [{leaderboard: top_sellers, query: SELECT 1, items: /a}]",
             "config/sources/sales-db.yaml: metrics[0].items: unknown key"),
            ("type: postgres\ndsn: ${DSN}\nmaxRows: 0\nmetrics: [{leaderboard: top_sellers, query: \"SELECT 'a', 1\"}]",
             "config/sources/sales-db.yaml: maxRows: must be between 1 and 100000, got 0"),
            ("type: prometheus\nurl: http://a\nmetrics: [{leaderboard: top_sellers, query: 'topk(3, x)'}]",
             "config/sources/sales-db.yaml: metrics[0].leaderboard: is for json and postgres sources; a Prometheus query gives one number"),
        ])
    func mistakes(_ yaml: String, expected: String) {
        let found = problems(yaml)
        #expect(found == [expected])
        #expect(!found.joined().contains("hunter2"))
    }

    @Test(
        "a metric's query gives one row with one number; anything else is a failure naming the metric and what came back",
        arguments: [
            (PostgresRows(columns: [number], rows: [["42"]]), Result<Double, SourceFailure>.success(42)),
            (PostgresRows(columns: [number], rows: [["-1234.5678"]]), .success(-1234.5678)),
            (PostgresRows(columns: [number], rows: [["1e+20"]]), .success(1e20)),
            (PostgresRows(columns: [number], rows: []),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "no rows"))),
            (PostgresRows(columns: [number], rows: [["1"], ["2"]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "more than one row"))),
            (PostgresRows(columns: [number, number], rows: [["1", "2"]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "2 columns"))),
            (PostgresRows(columns: [text], rows: [["12"]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "a column that is not a number"))),
            (PostgresRows(columns: [number], rows: [[nil]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "NULL"))),
            (PostgresRows(columns: [number], rows: [["NaN"]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "\"NaN\""))),
            (PostgresRows(columns: [number], rows: [["Infinity"]]),
             .failure(.resultShape(target: "m", expected: "one row with one number", found: "\"Infinity\""))),
        ])
    func metricShape(_ rows: PostgresRows, expected: Result<Double, SourceFailure>) {
        let found = Result { () throws(SourceFailure) in try PostgresAnswer.metricValue(rows, metric: "m") }
        #expect(found == expected)
        if case .failure(let failure) = found { #expect(failure.description.hasPrefix("m: expected one row")) }
    }

    @Test("a leaderboard's query gives (name, score) rows in its order, at most the cap")
    func leaderboardRows() throws {
        let rows = PostgresRows(columns: [text, number], rows: [["ada", "30"], ["bob", "12.5"], ["cy", "-1"]])
        #expect(
            try PostgresAnswer.leaderboard(rows, board: "top", cap: 3)
                == [.init(name: "ada", value: 30), .init(name: "bob", value: 12.5), .init(name: "cy", value: -1)])
        #expect(throws: SourceFailure.tooManyRows(target: "top", cap: 2)) {
            try PostgresAnswer.leaderboard(rows, board: "top", cap: 2)
        }
        #expect(SourceFailure.tooManyRows(target: "top", cap: 2).description == "top: more than 2 rows (maxRows)")
        #expect(try PostgresAnswer.leaderboard(PostgresRows(columns: [text, number], rows: []), board: "top", cap: 1) == [])
    }

    @Test(
        "a leaderboard's rows of the wrong shape are a failure naming the board and what came back",
        arguments: [
            (PostgresRows(columns: [text], rows: [["ada"]]), "1 columns"),
            (PostgresRows(columns: [text, text], rows: [["ada", "3"]]), "a score column that is not a number"),
            (PostgresRows(columns: [text, number], rows: [[nil, "3"]]), "a NULL name in row 1"),
            (PostgresRows(columns: [text, number], rows: [["ada", "1"], ["bob", nil]]), "NULL"),
            (PostgresRows(columns: [text, number], rows: [["ada", "1"], ["ada", "2"]]), "\"ada\" twice"),
        ])
    func leaderboardShape(_ rows: PostgresRows, found: String) {
        #expect(throws: SourceFailure.self) { try PostgresAnswer.leaderboard(rows, board: "top", cap: 10) }
        do {
            _ = try PostgresAnswer.leaderboard(rows, board: "top", cap: 10)
        } catch {
            #expect(error.description.hasPrefix("top: expected "))
            #expect(error.description.hasSuffix("got \(found)"))
        }
    }

    @Test("the fetch needs the dsn's variable set, and says which one, without connecting")
    func missingVariable() throws {
        let source = try #require(try parse(Self.example))
        #expect(SourceFetch.perform(source, environment: { _ in nil }) == .failure(.missingVariable("SALES_DSN")))
    }

    @Test("a connection string libpq cannot read is refused without quoting it, before any connection")
    func unreadableDSN() {
        #expect(throws: PostgresError.self) { try PostgresConnection(dsn: "host=127.0.0.1 hunter2", timeout: 1) }
        do {
            _ = try PostgresConnection(dsn: "host=127.0.0.1 hunter2", timeout: 1)
        } catch {
            #expect(!error.description.contains("hunter2"), "\(error)")
        }
    }

    @Test("libpq's and the server's messages are shown on one line, cut to 200 characters")
    func shownMessages() {
        #expect(PostgresError.shown("FATAL:  password authentication failed\n  for user \"app\"\n") == "FATAL: password authentication failed for user \"app\"")
        #expect(PostgresError.shown(String(repeating: "x", count: 300)).count == 200)
        #expect(PostgresError.statement(state: "25006", message: "cannot execute INSERT in a read-only transaction").state == "25006")
    }
}
