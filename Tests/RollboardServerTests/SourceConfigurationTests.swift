import Foundation
import RollboardFetch
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

private let dashboardFile = "config/dashboards/ops.yaml"
private let dashboardYAML = """
    id: ops
    title: Ops
    grid: {columns: 4, rows: 2}
    tiles:
      - {id: errors, type: odometer, metric: error_rate, decimals: 2, position: {column: 1, row: 1}}
      - {id: visitors, type: counter, metric: visitors, position: {column: 2, row: 1}}
      - {id: mood, type: wheel, metric: mood, contents: [ok, bad], position: {column: 3, row: 1}}
    """

private func parse(_ sources: [(String, String)]) throws(ConfigurationError) -> RollboardConfiguration {
    try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(dashboardFile, dashboardYAML)], sources: sources)
}

private func problems(_ yaml: String, file: String = "config/sources/prod.yaml") -> [String] {
    do {
        _ = try parse([(file, yaml)])
        return []
    } catch {
        return error.problems
    }
}

/// `config/sources/*.yaml`: what a source file says, and every mistake named by file and field.
@Suite("Source configuration")
struct SourceConfigurationTests {
    @Test("the issue's Prometheus example (without its leaderboard entry) is read with its durations and headers")
    func prometheusExample() throws {
        let yaml = """
            id: prod-prometheus
            type: prometheus
            url: http://127.0.0.1:9090
            every: 30s
            timeout: 5s
            headers: { Authorization: "Bearer ${PROM_TOKEN}" }
            metrics:
              - metric: error_rate
                query: 'sum(rate(http_requests_total{code=~"5.."}[5m]))'
            """
        let source = try #require(parse([("config/sources/prod.yaml", yaml)]).sources.first)
        #expect(source.id == "prod-prometheus")
        #expect(source.kind == .prometheus)
        #expect(source.every == 30)
        #expect(source.timeout == 5)
        #expect(source.headers == [SourceHeader(name: "Authorization", template: "Bearer ${PROM_TOKEN}")])
        #expect(source.headers[0].variables == ["PROM_TOKEN"])
        #expect(source.metrics == [.init(metric: "error_rate", pointer: nil, query: #"sum(rate(http_requests_total{code=~"5.."}[5m]))"#)])
    }

    @Test("a json source takes its defaults: GET, every 30 s, timeout 10 s (or every, if shorter), 1 MiB")
    func jsonDefaults() throws {
        let yaml = "type: json\nurl: https://api.example.com/stats\nmetrics:\n  - {metric: visitors, pointer: /data/visitors/0}\n"
        let source = try #require(parse([("config/sources/stats.yaml", yaml)]).sources.first)
        #expect(source.id == "stats")
        #expect(source.method == SourceConfiguration.Defaults.method)
        #expect(source.every == SourceConfiguration.Defaults.every)
        #expect(source.timeout == SourceConfiguration.Defaults.timeout)
        #expect(source.maxBytes == 1 << 20)
        #expect(source.redirects == .sameHost)
        for policy in FetchRedirects.allCases {
            let yaml = "type: json\nurl: http://a\nredirects: \(policy.rawValue)\nmetrics: [{metric: visitors, pointer: /a}]\n"
            #expect(try parse([("config/sources/r.yaml", yaml)]).sources.first?.redirects == policy)
        }
        let often = "type: json\nurl: http://a\nevery: 4s\nmetrics:\n  - {metric: visitors, pointer: /a}\n"
        let frequent = try #require(parse([("config/sources/often.yaml", often)]).sources.first)
        #expect(frequent.timeout == 4, "without its own timeout, a source polled more often than 10 s waits one period")
    }

    @Test(
        "mistakes are named by file and field",
        arguments: [
            ("type: xml\nurl: http://a\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: type: must be one of json, prometheus, postgres, got \"xml\""),
            ("type: json\nurl: file:///etc/passwd\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: url: must be an http:// or https:// URL"),
            ("type: json\nurl: \"http://\"\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: url: must be an http:// or https:// URL naming a host, got \"http://\""),
            ("type: json\nurl: \"https://:443/stats\"\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: url: must be an http:// or https:// URL naming a host, got \"https://:443/stats\""),
            ("type: json\nurl: http://a\nredirects: sometimes\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: redirects: must be one of same-host, any-host, none, got \"sometimes\""),
            ("type: json\nurl: http://a\nmetrics: [{metric: visitors, pointer: a/b}]",
             "config/sources/prod.yaml: metrics[0].pointer: must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"),
            ("type: json\nurl: http://a\nmetrics: [{metric: mood, pointer: /a}]",
             "config/sources/prod.yaml: metrics[0].metric: \"mood\" is not shown by an odometer or counter tile of any dashboard"),
            ("type: json\nurl: http://a\nmetrics: [{metric: nothing, pointer: /a}]",
             "config/sources/prod.yaml: metrics[0].metric: \"nothing\" is not shown by an odometer or counter tile of any dashboard"),
            ("type: prometheus\nurl: http://a\nmetrics: [{metric: visitors, query: up, pointer: /a}]",
             "config/sources/prod.yaml: metrics[0].pointer: unknown key"),
            ("type: json\nurl: http://a\nevery: 10s\ntimeout: 20s\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: timeout: must not be longer than every (10 s)"),
            ("type: json\nurl: http://a\nevery: soon\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: every: must be a duration such as 30s, 500ms, 5m or 1h, got soon"),
            ("type: json\nurl: http://a\nevery: 500ms\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: every: must be between 1 s and 86400 s, got 0.5 s"),
            ("type: json\nurl: http://a\nmetrics: []",
             "config/sources/prod.yaml: metrics: must list at least one metric"),
            ("type: prometheus\nurl: http://a\nmetrics: [{leaderboard: top, query: 'topk(3, x)', label: service}]",
             "config/sources/prod.yaml: metrics[0].leaderboard: is for json and postgres sources; a Prometheus query gives one number"),
            ("type: json\nurl: http://a\nmethod: DELETE\nmetrics: [{metric: visitors, pointer: /a}]",
             "config/sources/prod.yaml: method: must be GET or POST, got \"DELETE\""),
        ])
    func mistakes(_ yaml: String, expected: String) {
        #expect(problems(yaml) == [expected])
    }

    @Test("two sources may not feed one metric, nor share an id")
    func conflicts() {
        let one = "type: json\nurl: http://a\nmetrics: [{metric: visitors, pointer: /a}]"
        do {
            _ = try parse([("config/sources/a.yaml", one), ("config/sources/b.yaml", one)])
            Issue.record("accepted")
        } catch {
            #expect(error.problems == [#"config/sources/b.yaml: metrics: "visitors" is already fed by source "a" (config/sources/a.yaml)"#])
        }
        let withID = "id: same\n" + one
        do {
            _ = try parse([("config/sources/a.yaml", withID), ("config/sources/b.yaml", withID)])
            Issue.record("accepted")
        } catch {
            #expect(error.problems == [#"config/sources/b.yaml: id: duplicate source id "same", already used by config/sources/a.yaml"#])
        }
    }

    @Test(
        "${NAME} in a header is read from the environment at each fetch; a missing variable is named, never its value",
        arguments: [
            ("Bearer ${TOKEN}", ["TOKEN": "s3cret"], Result<String, SourceFailure>.success("Bearer s3cret")),
            ("${A}:${B}", ["A": "x", "B": "y"], .success("x:y")),
            ("cost $5 ${ not a name} $", [:], .success("cost $5 ${ not a name} $")),
            ("Bearer ${TOKEN}", [:], .failure(.missingVariable("TOKEN"))),
        ])
    func headerTemplates(_ template: String, environment: [String: String], expected: Result<String, SourceFailure>) {
        let header = SourceHeader(name: "Authorization", template: template)
        let result = Result { () throws(SourceFailure) in try header.value { environment[$0] } }
        #expect(result == expected)
    }

    @Test("docs/sources.md states the defaults as SourceConfiguration.Defaults and FetchRequest.Defaults have them")
    func documentedDefaults() throws {
        let text = try String(
            contentsOf: DefaultsTests.repositoryRoot.appendingPathComponent("docs/sources.md"), encoding: .utf8)
        let stated = [
            "| `method` | `\(SourceConfiguration.Defaults.method)` |",
            "| `every` | `\(Int(SourceConfiguration.Defaults.every))s` |",
            "| `timeout` | `\(Int(SourceConfiguration.Defaults.timeout))s`, or `every` if shorter |",
            "| `maxBytes` | `\(FetchRequest.Defaults.maxBytes)` |",
            "| `redirects` | `\(FetchRequest.Defaults.redirects.rawValue)` |",
            "at most \(FetchRequest.Defaults.maxRedirects) redirects",
            "fewer than \(FetchRequest.Defaults.lowSpeedBytesPerSecond) bytes a second for "
                + "\(Int(FetchRequest.Defaults.lowSpeedSeconds)) s",
            "retried after \(Int(SourcePoller.firstRetry)) s",
        ]
        for line in stated { #expect(text.contains(line), "docs/sources.md lacks \(line)") }
    }
}
