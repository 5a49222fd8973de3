package import RollboardCore
import RollboardFetch
import Yams

extension SourceConfiguration {
    static let keys = [
        "id", "type", "url", "method", "headers", "body", "every", "timeout", "maxBytes", "caFile", "redirects", "metrics",
    ]

    /// Reads a source from the root node of its file; each metric must be shown by an odometer or counter tile of
    /// `catalog`. `nil` when it has problems (reported).
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
        var url = ""
        if reader.require("url"), let given = reader.string("url") {
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
        let metrics = Self.metrics(reader, kind: kind, catalog: catalog)
        guard problems.lines.count == before else { return nil }
        self.init(
            id: id, kind: kind, url: url, method: kind == .prometheus ? "GET" : method, headers: headers, body: body,
            every: every, timeout: timeout, maxBytes: maxBytes, caFile: caFile, redirects: redirects, metrics: metrics,
            file: file)
    }

    private static func metrics(_ reader: YAMLMappingReader, kind: Kind, catalog: MetricCatalog) -> [Metric] {
        var metrics: [Metric] = []
        for entry in reader.entries("metrics", listing: "metric") {
            if entry.node("leaderboard") != nil {
                entry.report("leaderboard", "leaderboard entries are not supported yet; use metric")
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
                entry.report("pointer", "must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)")
            }
            if kind == .prometheus, locator.allSatisfy(\.isWhitespace) {
                entry.report("query", "must not be empty")
            }
            metrics.append(
                Metric(metric: id, pointer: kind == .json ? locator : nil, query: kind == .prometheus ? locator : nil))
        }
        return metrics
    }
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
            for id in source.metricIDs {
                if let other = sources[..<index].first(where: { $0.metricIDs.contains(id) }) {
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
