import Testing
import RollboardAnimation

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

private let file = "config/dashboards/demo.yaml"

/// A dashboard file with one tile made of `tile` (YAML lines for the tile, indented by the helper).
private func dashboard(tile: String, extra: String = "") -> String {
    let indented = tile.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        .joined(separator: "\n")
    return "id: demo\ntitle: Demo\ngrid: {columns: 4, rows: 3}\n\(extra)tiles:\n  -\n\(indented)\n"
}

private func problems(server: String? = nil, dashboards: [(String, String)]) -> [String] {
    do {
        _ = try RollboardConfiguration.parse(serverYAML: server, dashboards: dashboards)
        return []
    } catch {
        return error.problems
    }
}

@Suite("RollboardConfiguration")
struct RollboardConfigurationTests {
    @Test(
        "a dashboard's locale is the page's language in hello; one that is not a known language tag is refused by name",
        arguments: [("de-DE", true), ("fr", true), ("zh-Hans-CN", true), ("deutsch", false), ("de_DE", false), ("1", false),
                    ("xx-YY", false)])
    func dashboardLocale(tag: String, valid: Bool) throws {
        let yaml = dashboard(tile: "id: notice\ntype: text", extra: "locale: \"\(tag)\"\n")
        let found = problems(dashboards: [(file, yaml)])
        if valid {
            #expect(found.isEmpty, "\(found)")
            let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(file, yaml)])
            let hello = configuration.json(try #require(configuration.dashboard("demo"))).serialized
            #expect(hello.contains("\"locale\":\"\(tag)\""))
        } else {
            #expect(found == ["\(file): locale: \"\(tag)\" is not a locale the server knows: give a language tag such as de-DE, fr or ja-JP"])
        }
    }

    @Test("the shipped configuration loads and its demo and story dashboards show every tile type")
    func shippedConfigurationLoads() throws {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let configuration = try RollboardConfiguration.load(directory: "/" + root + "/config")
        let demo = try #require(configuration.dashboard("demo"))
        let story = try #require(configuration.dashboard("story"))
        #expect(Set((demo.tiles + story.tiles).map(\.type)) == Set(TileType.allCases))
        #expect(configuration.catalog.kind(of: "revenue") == .metric)
        #expect(configuration.catalog.kind(of: "status") == .wheel)
        #expect(configuration.catalog.kind(of: "news") == .carousel)
        #expect(configuration.catalog.kind(of: "notice") == .text)
        guard case .odometer(let revenue) = demo.tile("revenue")?.options else {
            Issue.record("revenue is not an odometer")
            return
        }
        #expect(revenue.decimals == 2)
    }

    @Test("a missing server file means every default")
    func defaults() throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [(file, dashboard(tile: "id: revenue\ntype: odometer"))])
        #expect(configuration.server == ServerSettings())
        #expect(configuration.server.port == 8443)
        #expect(configuration.server.dataDirectory == ".data")
        let tile = try #require(configuration.dashboards.first?.tiles.first)
        #expect(tile.metric == "revenue")
        #expect(tile.options == .odometer(OdometerOptions(columns: .growing(max: 15), decimals: 0)))
        #expect(configuration.dashboards.first?.grid == GridSize(columns: 4, rows: 3))
    }

    @Test("server settings are read from every key")
    func serverSettings() throws {
        let yaml = """
            host: 127.0.0.1
            port: 9000
            dataDirectory: /var/lib/rollboard
            tls: {certificate: /c.pem, privateKey: /k.pem}
            limits: {maxFPS: 50, defaultFPS: 25, producerRequestsPerSecond: 5, maxConnectionsPerAddress: 0}
            allowedOrigins: ["https://tv.example.com"]
            producerTokens:
              - token: 0123456789abcdef0123
                metrics: [revenue]
            staleAfter: 60
            historyLength: 10
            journalCompactionBytes: 65536
            """
        let server = try RollboardConfiguration.parse(
            serverYAML: yaml, dashboards: [(file, dashboard(tile: "id: revenue\ntype: odometer"))]
        ).server
        #expect(server.host == "127.0.0.1")
        #expect(server.port == 9000)
        #expect(server.tls == ServerSettings.TLSFiles(certificate: "/c.pem", privateKey: "/k.pem"))
        #expect(server.limits.maxFPS == 50)
        #expect(server.limits.defaultFPS == 25)
        #expect(server.limits.producerRequestsPerSecond == 5)
        #expect(server.limits.maxConnectionsPerAddress == 0)
        #expect(server.allowedOrigins == ["https://tv.example.com"])
        #expect(server.producerTokens == [ProducerToken(token: "0123456789abcdef0123", metrics: ["revenue"])])
        #expect(server.staleAfter == 60)
        #expect(server.historyLength == 10)
        #expect(server.journalCompactionBytes == 65_536)
        #expect(server.storeDirectory == "/var/lib/rollboard/store")
    }

    @Test(
        "a tile's queue policy and lag bound are its own, else fifo and twice the longest move it plays by itself",
        arguments: [
            ("type: odometer", QueuePolicy.fifo, 6.0 as Double?),
            ("type: odometer\nmaxDuration: 1.5\nqueue: retarget", .retarget, 3),
            ("type: odometer\nmaxDuration: 0", .fifo, nil),
            ("type: odometer\nmaxDuration: 0\nmaxLag: 20\nqueue: latest", .latest, 20),
            ("type: counter\nduration: 2.5", .fifo, 5),
            ("type: wheel\ncontents: [a, b]\nduration: 0.2", .fifo, 1),
        ])
    func queueAndLag(tile: String, policy: QueuePolicy, maxLag: Double?) throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [(file, dashboard(tile: "id: shown\n" + tile))])
        let shown = try #require(configuration.dashboard("demo")?.tile("shown"))
        #expect((shown.queue ?? .fifo) == policy)
        #expect(configuration.maxLag(shown) == maxLag)
        guard case .object(let members) = configuration.json(shown) else { return }
        #expect(members.contains(JSONMember("queue", .string(policy.rawValue))))
    }

    static let badTiles: [(tile: String, message: String)] = [
        (
            "id: revenue\ntype: odometer\ndecimals: 9",
            #"config/dashboards/demo.yaml: tile "revenue": decimals: must be between 0 and 6, got 9"#
        ),
        (
            "id: revenue\ntype: odometer\nmaxDuration: -1",
            #"config/dashboards/demo.yaml: tile "revenue": maxDuration: must be between 0 and 3600, got -1"#
        ),
        (
            "id: revenue\ntype: odometer\nqueue: lifo",
            #"config/dashboards/demo.yaml: tile "revenue": queue: must be one of fifo, latest, retarget, got "lifo""#
        ),
        (
            "id: revenue\ntype: odometer\nmaxLag: 0",
            #"config/dashboards/demo.yaml: tile "revenue": maxLag: must be between 0.1 and 3600, got 0"#
        ),
        (
            "id: news\ntype: carousel\nslides: [{text: Hello}]\nqueue: latest",
            #"config/dashboards/demo.yaml: tile "news": queue: carousel tiles have no animation queue"#
        ),
        (
            "id: revenue\ntype: odometer\ngoal: 10\nwarning: 50",
            #"config/dashboards/demo.yaml: tile "revenue": warning: warning (50) must be below goal (10)"#
        ),
        (
            "id: revenue\ntype: odometer\ngoal: 100\nwarning: 50\ncritical: 60",
            #"config/dashboards/demo.yaml: tile "revenue": critical: critical (60) must be below warning (50)"#
        ),
        (
            "id: revenue\ntype: odometer\ndelta: average",
            #"config/dashboards/demo.yaml: tile "revenue": delta: must be one of previous, baseline, none, got "average""#
        ),
        (
            "id: revenue\ntype: odometer\ndelta: baseline",
            #"config/dashboards/demo.yaml: tile "revenue": delta: baseline needs a baseline value"#
        ),
        (
            "id: status\ntype: wheel\ncontents: [a]\ngoal: 3",
            #"config/dashboards/demo.yaml: tile "status": goal: is an option of odometer tiles, not wheel tiles (wheel options: contents, duration, colors)"#
        ),
        (
            "id: revenue\ntype: odometer\ndecimal: 2",
            #"config/dashboards/demo.yaml: tile "revenue": decimal: unknown key (did you mean "decimals"?)"#
        ),
        (
            "id: revenue\ntype: odometer\ncolour: red",
            #"config/dashboards/demo.yaml: tile "revenue": colour: unknown key"#
        ),
        (
            "id: revenue\ntype: odometer\ncolumns: 4\nmaxColumns: 8",
            #"config/dashboards/demo.yaml: tile "revenue": maxColumns: give either columns (fixed) or maxColumns (growing), not both"#
        ),
        (
            "id: revenue\ntype: odometer\ncolumns: 3\ndecimals: 3",
            #"config/dashboards/demo.yaml: tile "revenue": decimals: must be less than columns (3), got 3"#
        ),
        (
            "id: revenue\ntype: odometer\ncolumns: 16",
            #"config/dashboards/demo.yaml: tile "revenue": columns: must be between 1 and 15, got 16"#
        ),
        (
            "id: revenue\ntype: odometer\ndecimals: \"2\"",
            #"config/dashboards/demo.yaml: tile "revenue": decimals: must be an integer, got "2""#
        ),
        (
            "id: revenue\ntype: odometer\nformat: \"%d\"",
            #"config/dashboards/demo.yaml: tile "revenue": format: is an option of counter tiles, not odometer tiles (odometer options: columns, maxColumns, decimals, prefix, suffix, maxDuration, pad, compact, trend, locale, groupSeparator, decimalSeparator, currency, goal, warning, critical, lowerIsBetter, delta, baseline, window, aggregate, compare)"#
        ),
        (
            "id: revenue\ntype: speedometer",
            #"config/dashboards/demo.yaml: tile "revenue": type: must be one of odometer, counter, wheel, carousel, text, gauge, clock, leaderboard, chart, got "speedometer""#
        ),
        (
            "id: revenue",
            #"config/dashboards/demo.yaml: tile "revenue": type: is required"#
        ),
        (
            "type: odometer",
            #"config/dashboards/demo.yaml: tiles[0]: id: is required"#
        ),
        (
            "id: \"bad id\"\ntype: odometer",
            #"config/dashboards/demo.yaml: tiles[0]: id: must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit, got "bad id""#
        ),
        (
            "id: orders\ntype: counter\nformat: \"%s\"",
            #"config/dashboards/demo.yaml: tile "orders": format: must be %d or %.Nf with N from 0 to 6, got "%s""#
        ),
        (
            "id: orders\ntype: counter\nformat: \"%.7f\"",
            #"config/dashboards/demo.yaml: tile "orders": format: must be %d or %.Nf with N from 0 to 6, got "%.7f""#
        ),
        (
            "id: orders\ntype: counter\ngrouping: \"#,##0.00\"",
            #"config/dashboards/demo.yaml: tile "orders": grouping: has 2 decimal places but format %d has 0"#
        ),
        (
            "id: orders\ntype: counter\ngrouping: \"#;##0\"",
            ##"config/dashboards/demo.yaml: tile "orders": grouping: must be a pattern of #, 0 and , with an optional .00 part, like ###,##0.00, got "#;##0""##
        ),
        (
            "id: orders\ntype: counter\neasing: bounce",
            #"config/dashboards/demo.yaml: tile "orders": easing: must be one of easeInOut, easeIn, easeOut, linear, got "bounce""#
        ),
        (
            "id: orders\ntype: counter\nduration: 0.1",
            #"config/dashboards/demo.yaml: tile "orders": duration: must be between 0.3 and 60, got 0.1"#
        ),
        (
            "id: status\ntype: wheel",
            #"config/dashboards/demo.yaml: tile "status": contents: is required"#
        ),
        (
            "id: status\ntype: wheel\ncontents: []",
            #"config/dashboards/demo.yaml: tile "status": contents: must list at least one string"#
        ),
        (
            "id: status\ntype: wheel\ncontents: Operational",
            #"config/dashboards/demo.yaml: tile "status": contents: must be a list, got Operational"#
        ),
        (
            "id: news\ntype: carousel\nslides: [{text: a, image: b.png}]",
            #"config/dashboards/demo.yaml: tile "news": slides[0]: give either image or text, not both"#
        ),
        (
            "id: news\ntype: carousel\nslides: [{text: a, caption: b}]",
            #"config/dashboards/demo.yaml: tile "news": slides[0].caption: unknown key"#
        ),
        (
            "id: news\ntype: carousel\nslides: [{image: ../../etc/passwd}]",
            #"config/dashboards/demo.yaml: tile "news": slides[0].image: must be a path under public/ without '..', got "../../etc/passwd""#
        ),
        (
            "id: news\ntype: carousel\nslides: [{text: a}]\ninterval: 0",
            #"config/dashboards/demo.yaml: tile "news": interval: must be between 0.5 and 3600, got 0"#
        ),
        (
            "id: status\ntype: wheel\ncontents: [ok, down]\ncolors: {up: \"#0f0\"}",
            #"config/dashboards/demo.yaml: tile "status": colors.up: is not one of the wheel's contents (ok, down)"#
        ),
        (
            "id: status\ntype: wheel\ncontents: [ok, down]\ncolors: {ok: green}",
            #"config/dashboards/demo.yaml: tile "status": colors.ok: must be a colour like #rgb or #rrggbb"#
        ),
        (
            "id: news\ntype: carousel\nslides: [{text: a}]\ndotColor: red",
            #"config/dashboards/demo.yaml: tile "news": dotColor: must be a colour like #rgb or #rrggbb, got "red""#
        ),
        (
            "id: revenue\ntype: odometer\nposition: {column: 4, row: 1, width: 2}",
            #"config/dashboards/demo.yaml: tile "revenue": position.width: the tile ends at column 5, past the grid's 4 columns"#
        ),
        (
            "id: revenue\ntype: odometer\nposition: {column: 1}",
            #"config/dashboards/demo.yaml: tile "revenue": position.row: is required"#
        ),
        (
            "id: revenue\ntype: odometer\nstaleAfter: -5",
            #"config/dashboards/demo.yaml: tile "revenue": staleAfter: must be between 1 and 31536000, got -5"#
        ),
        (
            "id: notice\ntype: text\nalign: middle",
            #"config/dashboards/demo.yaml: tile "notice": align: must be one of left, center, right, got "middle""#
        ),
        (
            "id: notice\ntype: text\ntext: \"\(String(repeating: "x", count: 501))\"",
            #"config/dashboards/demo.yaml: tile "notice": text: text is 501 characters; at most 500"#
        ),
        (
            "id: notice\ntype: text\nqueue: latest",
            #"config/dashboards/demo.yaml: tile "notice": queue: text tiles have no animation queue"#
        ),
        (
            "id: notice\ntype: text\nslides: [{text: a}]",
            #"config/dashboards/demo.yaml: tile "notice": slides: is an option of carousel tiles, not text tiles (text options: text, align)"#
        ),
        (
            "id: revenue\ntype: odometer\ndecimals: 1\ndecimals: 2",
            #"config/dashboards/demo.yaml: tile "revenue": decimals: duplicate key"#
        ),
    ]

    @Test("a bad tile is refused with a message naming the file, the tile and the field", arguments: badTiles)
    func badTile(tile: String, message: String) {
        #expect(problems(dashboards: [(file, dashboard(tile: tile))]) == [message])
    }

    static let badServers: [(yaml: String, message: String)] = [
        ("port: 70000", "config/server.yaml: port: must be between 0 and 65535, got 70000"),
        ("prot: 8443", #"config/server.yaml: prot: unknown key (did you mean "port"?)"#),
        ("limits: {maxFPS: 120}", "config/server.yaml: limits.maxFPS: must be between 1 and 60, got 120"),
        (
            "limits: {maxConnectionsPerAddress: -1}",
            "config/server.yaml: limits.maxConnectionsPerAddress: must be between 0 and 1000000, got -1"
        ),
        (
            "limits: {defaultFPS: 40, maxFPS: 30}",
            "config/server.yaml: limits.defaultFPS: must not be above maxFPS (30), got 40"
        ),
        (
            "limits: {outboundLowWatermark: 300000}",
            "config/server.yaml: limits.outboundLowWatermark: must be below outboundHighWatermark (262144), got 300000"
        ),
        ("tls: {certificate: /c.pem}", "config/server.yaml: tls.privateKey: is required"),
        (
            "producerTokens: [{token: short}]",
            "config/server.yaml: producerTokens[0].token: must be at least 16 printable ASCII characters without spaces"
        ),
        (
            "producerTokens: [{token: 0123456789abcdefgh, metrics: [revenu]}]",
            #"config/server.yaml: producerTokens[0].metrics: unknown id "revenu""#
        ),
        (
            "allowedOrigins: [tv.example.com]",
            #"config/server.yaml: allowedOrigins[0]: must be an origin like https://example.com:8443 (scheme, host, optional port, no path), got "tv.example.com""#
        ),
        ("port: [1]", "config/server.yaml: port: must be an integer, got a list"),
        ("- just a list", "config/server.yaml: must be a mapping, got a list"),
    ]

    @Test("a bad server setting is refused with a message naming the file and the field", arguments: badServers)
    func badServer(yaml: String, message: String) {
        #expect(
            problems(server: yaml, dashboards: [(file, dashboard(tile: "id: revenue\ntype: odometer"))]) == [message])
    }

    @Test("two tiles with one id are refused")
    func duplicateTileIDs() {
        let yaml = "id: demo\ntiles:\n  - {id: a, type: odometer}\n  - {id: a, type: counter}\n"
        #expect(
            problems(dashboards: [(file, yaml)]) == [#"config/dashboards/demo.yaml: tile "a": id: duplicate tile id"#])
    }

    @Test("two dashboards with one id are refused, naming both files")
    func duplicateDashboardIDs() {
        let yaml = "id: demo\ntiles:\n  - {id: a, type: odometer}\n"
        #expect(
            problems(dashboards: [(file, yaml), ("config/dashboards/other.yaml", yaml)]) == [
                #"config/dashboards/other.yaml: id: duplicate dashboard id "demo", already used by config/dashboards/demo.yaml"#
            ])
    }

    @Test("overlapping tiles are refused")
    func overlappingTiles() {
        let yaml = """
            id: demo
            tiles:
              - {id: a, type: odometer, position: {column: 1, row: 1, width: 2}}
              - {id: b, type: odometer, position: {column: 2, row: 1}}
            """
        #expect(
            problems(dashboards: [(file, yaml)]) == [
                #"config/dashboards/demo.yaml: tile "b": position: overlaps tile "a""#
            ])
    }

    @Test("one id shown as a wheel and as a number is refused")
    func kindConflict() {
        let first = "id: one\ntiles:\n  - {id: status, type: wheel, contents: [a, b]}\n"
        let second = "id: two\ntiles:\n  - {id: status, type: odometer}\n"
        #expect(
            problems(dashboards: [(file, first), ("config/dashboards/two.yaml", second)]) == [
                #"config/dashboards/two.yaml: tile "status": metric: "status" is shown by wheel tile "status" of dashboard "one", so it cannot also be shown by a odometer tile"#
            ])
    }

    @Test("every problem of a file is reported, not only the first")
    func severalProblems() {
        let tile = "id: revenue\ntype: odometer\ndecimals: 9\nprefx: $"
        #expect(problems(dashboards: [(file, dashboard(tile: tile))]).count == 2)
    }

    @Test("invalid YAML names the file")
    func invalidYAML() {
        let lines = problems(dashboards: [(file, "tiles: [unclosed")])
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("config/dashboards/demo.yaml: invalid YAML:") == true)
    }

    @Test("a dashboard id defaults to the file name and the rows to what the tiles need")
    func derivedDefaults() throws {
        let yaml = "tiles:\n" + (1...5).map { "  - {id: t\($0), type: odometer}" }.joined(separator: "\n")
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("config/dashboards/sales.yaml", yaml)])
        #expect(configuration.dashboards.first?.id == "sales")
        #expect(configuration.dashboards.first?.grid == GridSize(columns: 4, rows: 2))
    }

    @Test("a dashboard without a grid sizes its grid to its tiles, so one tile fills the screen", arguments: [
        ("  - {id: tickets, type: counter}", GridSize(columns: 1, rows: 1)),
        ("  - {id: a, type: counter}\n  - {id: b, type: counter}", GridSize(columns: 2, rows: 1)),
        ("  - {id: a, type: counter, position: {column: 1, row: 1, width: 2}}", GridSize(columns: 2, rows: 1)),
        ("  - {id: a, type: counter, position: {column: 3, row: 2}}", GridSize(columns: 3, rows: 2)),
        ((1...6).map { "  - {id: t\($0), type: counter}" }.joined(separator: "\n"), GridSize(columns: 4, rows: 2)),
    ])
    func gridFromTiles(tiles: String, grid: GridSize) throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("config/dashboards/ops.yaml", "tiles:\n" + tiles)])
        #expect(configuration.dashboards.first?.grid == grid)
    }

    @Test("a text tile reads its message and alignment, defaults to an empty centred one, and has no queue on the wire")
    func textTile() throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: "producerTokens: [{token: 0123456789abcdefgh, metrics: [notice]}]",
            dashboards: [
                (file, dashboard(tile: "id: notice\ntype: text\ntext: Deploy freeze\nalign: left", extra: "")),
                ("config/dashboards/b.yaml", "id: b\ntiles: [{id: quiet, type: text}]"),
            ])
        #expect(configuration.dashboard("demo")?.tile("notice")?.options == .text(TextOptions(text: "Deploy freeze", align: .left)))
        #expect(configuration.dashboard("b")?.tile("quiet")?.options == .text(TextOptions()))
        #expect(configuration.catalog.kind(of: "notice") == .text)
        let json = configuration.json(try #require(configuration.dashboard("demo")?.tile("notice"))).serialized
        #expect(json.hasSuffix(#""text":"Deploy freeze","align":"left"}"#))
        #expect(!json.contains("queue") && !json.contains("maxLag"))
    }
}
