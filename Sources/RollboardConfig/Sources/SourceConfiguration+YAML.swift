package import RollboardCore
import RollboardFetch
import Yams

extension SourceConfiguration {
    static let keys = [
        "id", "type", "url", "method", "headers", "body", "every", "timeout", "maxBytes", "caFile", "redirects", "metrics",
        "dsn", "maxRows",
    ]
    /// The keys of an HTTP upstream (`json`, `prometheus`), refused for a `postgres` source.
    static let httpKeys = ["url", "method", "headers", "body", "maxBytes", "caFile", "redirects"]

    /// Reads a source from the root node of its file; each metric must be shown by an odometer or counter tile of
    /// `catalog`, each leaderboard by a leaderboard tile. `nil` when it has problems (reported).
    init?(node: Node, file: String, catalog: MetricCatalog, problems: ConfigurationProblems) {
        let before = problems.lines.count
        guard let reader = YAMLMappingReader(node, context: file, field: "", problems: problems) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.keys)
        let id = reader.id(orNameOf: file)
        var kind = Kind.json
        if reader.require("type"), let name = reader.string("type") {
            if let known = Kind(rawValue: name) {
                kind = known
            } else {
                reader.report("type", "must be one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
            }
        }
        let http = kind != .postgres
        var url = ""
        if http, reader.require("url"), let given = reader.string("url") {
            url = given
            if given.contains(where: \.isWhitespace) {
                reader.report("url", "must be an http:// or https:// URL")
            } else {
                do {
                    _ = try FetchURL(given)
                } catch .malformedURL {
                    reader.report("url", "must be an http:// or https:// URL naming a host, got \"\(given.prefix(200))\"")
                } catch {
                    reader.report("url", "must be an http:// or https:// URL")
                }
            }
        }
        if !http, let key = Self.httpKeys.first(where: { reader.node($0) != nil }) {
            reader.report(key, "is for json and prometheus sources; a postgres source connects with its dsn")
        }
        let dsnVariable = Self.dsnVariable(reader, kind: kind)
        let method = reader.string("method") ?? Defaults.method
        if !["GET", "POST"].contains(method) { reader.report("method", "must be GET or POST, got \"\(method)\"") }
        if kind == .prometheus, reader.node("method") != nil || reader.node("body") != nil {
            reader.report(reader.node("method") != nil ? "method" : "body", "is for json sources; Prometheus queries are GETs")
        }
        let body = reader.string("body")
        var headers: [SourceHeader] = []
        if let mapping = reader.mapping("headers") {
            for name in mapping.keys {
                guard let template = mapping.string(name) else { continue }
                let header = SourceHeader(name: name, template: template)
                if !FetchHeader(name: name, value: template).isWellFormed {
                    mapping.report(name, "must be a header name with a one-line value")
                }
                headers.append(header)
            }
        }
        let every = reader.seconds("every", in: 1...86_400) ?? Defaults.every
        let given = reader.seconds("timeout", in: 0.1...600)
        if let given, given > every { reader.report("timeout", "must not be longer than every (\(formatNumber(every)) s)") }
        let timeout = given ?? min(Defaults.timeout, every)
        let maxBytes = reader.int("maxBytes", in: 1...(64 << 20)) ?? FetchRequest.Defaults.maxBytes
        let maxRows = reader.int("maxRows", in: 1...100_000) ?? Defaults.maxRows
        let caFile = reader.string("caFile")
        var redirects = FetchRequest.Defaults.redirects
        if let name = reader.string("redirects") {
            if let known = FetchRedirects(rawValue: name) {
                redirects = known
            } else {
                let names = FetchRedirects.allCases.map(\.rawValue).joined(separator: ", ")
                reader.report("redirects", "must be one of \(names), got \"\(name.prefix(100))\"")
            }
        }
        let (metrics, leaderboards) = Self.targets(reader, kind: kind, catalog: catalog)
        guard problems.lines.count == before else { return nil }
        self.init(
            id: id, kind: kind, url: url, method: kind == .json ? method : "GET", headers: headers, body: body,
            every: every, timeout: timeout, maxBytes: maxBytes, caFile: caFile, redirects: redirects, metrics: metrics,
            leaderboards: leaderboards, dsnVariable: dsnVariable, maxRows: maxRows, file: file)
    }

    /// `postgres`: the variable `dsn: ${NAME}` names. Anything else there is refused without repeating it (it may be
    /// a connection string with its password).
    private static func dsnVariable(_ reader: YAMLMappingReader, kind: Kind) -> String? {
        guard kind == .postgres else {
            if reader.node("dsn") != nil { reader.report("dsn", "is for postgres sources") }
            return nil
        }
        guard reader.require("dsn"), let dsn = reader.string("dsn") else { return nil }
        let pieces = SourceHeader.pieces(of: dsn)
        guard pieces.count == 1, case .variable(let name) = pieces[0] else {
            reader.report(
                "dsn", "must name an environment variable as ${NAME}; the connection string (with its password) does not belong in a file")
            return nil
        }
        return name
    }

    private static func targets(_ reader: YAMLMappingReader, kind: Kind, catalog: MetricCatalog)
        -> ([Metric], [Leaderboard])
    {
        var metrics: [Metric] = []
        var leaderboards: [Leaderboard] = []
        for entry in reader.entries("metrics", listing: "metric") {
            if entry.node("leaderboard") != nil {
                if let board = leaderboard(entry, kind: kind, catalog: catalog) {
                    if leaderboards.contains(where: { $0.leaderboard == board.leaderboard }) {
                        entry.report("leaderboard", "\"\(board.leaderboard)\" is listed twice")
                    }
                    leaderboards.append(board)
                }
                continue
            }
            let field = kind == .json ? "pointer" : "query"
            entry.rejectUnknownKeys(allowed: ["metric", field])
            guard entry.require("metric"), let id = entry.string("metric"), entry.require(field),
                let locator = entry.string(field)
            else { continue }
            if catalog.kind(of: id) != .metric {
                entry.report("metric", "\"\(id)\" is not shown by an odometer or counter tile of any dashboard")
            }
            if metrics.contains(where: { $0.metric == id }) { entry.report("metric", "\"\(id)\" is listed twice") }
            if kind == .json, JSONPointer.referenceTokens(locator) == nil {
                entry.report("pointer", pointerRule)
            }
            if kind != .json, locator.allSatisfy(\.isWhitespace) {
                entry.report("query", "must not be empty")
            }
            metrics.append(Metric(metric: id, pointer: kind == .json ? locator : nil, query: kind != .json ? locator : nil))
        }
        return (metrics, leaderboards)
    }

    /// A `leaderboard:` entry: a query (`postgres`) or an array of items and the pointers to each one's name and
    /// score (`json`).
    private static func leaderboard(_ entry: YAMLMappingReader, kind: Kind, catalog: MetricCatalog) -> Leaderboard? {
        guard kind != .prometheus else {
            entry.report("leaderboard", "is for json and postgres sources; a Prometheus query gives one number")
            return nil
        }
        let fields = kind == .json ? ["items", "name", "score"] : ["query"]
        entry.rejectUnknownKeys(allowed: ["leaderboard"] + fields)
        guard let id = entry.string("leaderboard") else { return nil }
        if catalog.kind(of: id) != .leaderboard {
            entry.report("leaderboard", "\"\(id)\" is not shown by a leaderboard tile of any dashboard")
        }
        var found: [String: String] = [:]
        for field in fields {
            guard entry.require(field), let text = entry.string(field) else { continue }
            if kind == .json, JSONPointer.referenceTokens(text) == nil { entry.report(field, pointerRule) }
            if kind == .postgres, text.allSatisfy(\.isWhitespace) { entry.report(field, "must not be empty") }
            found[field] = text
        }
        return Leaderboard(
            leaderboard: id, query: found["query"], items: found["items"], name: found["name"], score: found["score"])
    }

    static let pointerRule = "must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"
}

extension SourceConfiguration {
    /// The sources of `files`, in order: each id once, and each metric fed by one source only.
    static func all(
        in files: [(file: String, yaml: String)], catalog: MetricCatalog, problems: ConfigurationProblems
    ) -> [SourceConfiguration] {
        let sources = RollboardConfiguration.eachOnce(
            files, noun: "source", problems: problems, id: \.id, file: \.file
        ) { node, file in
            SourceConfiguration(node: node, file: file, catalog: catalog, problems: problems)
        }
        for (index, source) in sources.enumerated() {
            for id in source.metricIDs + source.leaderboardIDs {
                if let other = sources[..<index].first(where: { ($0.metricIDs + $0.leaderboardIDs).contains(id) }) {
                    problems.report(
                        source.file, "metrics", "\"\(id)\" is already fed by source \"\(other.id)\" (\(other.file))")
                }
            }
        }
        return sources
    }

    /// The source that feeds metric `id`, if any.
    package static func feeding(_ id: String, in sources: [SourceConfiguration]) -> SourceConfiguration? {
        sources.first { $0.metricIDs.contains(id) }
    }
}
