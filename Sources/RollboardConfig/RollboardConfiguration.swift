package import RollboardCore
import Yams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole validated configuration: server settings, dashboards, playlists, and the catalog of ids they show.
public struct RollboardConfiguration: Sendable, Equatable {
    public let server: ServerSettings
    /// Dashboards in file-name order.
    public let dashboards: [DashboardConfiguration]
    /// Playlists in file-name order.
    public let playlists: [PlaylistConfiguration]
    public let catalog: MetricCatalog
    /// Scheduled sources in file-name order (`config/sources/*.yaml`, optional).
    public var sources: [SourceConfiguration] = []
    /// Webhook endpoints in file-name order (`config/webhooks/*.yaml`, optional).
    public var webhooks: [WebhookConfiguration] = []

    /// Loads `<directory>/server.yaml` (optional: absent means every default), `<directory>/dashboards/*.yaml`,
    /// `<directory>/playlists/*.yaml`, `<directory>/sources/*.yaml` and `<directory>/webhooks/*.yaml` (optional
    /// folders), in file-name order, validating everything; the error lists every problem found.
    public static func load(directory: String = "config") throws(ConfigurationError) -> RollboardConfiguration {
        let serverFile = directory + "/server.yaml"
        let serverYAML: String?
        do {
            serverYAML = try readWholeFile(serverFile).map { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw ConfigurationError(problems: ["\(serverFile): cannot read: \(error)"])
        }
        return try parse(
            serverYAML: serverYAML, serverFile: serverFile,
            dashboards: try yamlFiles(in: directory + "/dashboards", required: true),
            playlists: try yamlFiles(in: directory + "/playlists", required: false),
            sources: try yamlFiles(in: directory + "/sources", required: false),
            webhooks: try yamlFiles(in: directory + "/webhooks", required: false))
    }

    /// Every `*.yaml` (or `*.yml`) file in `folder` with its text, in file-name order; a missing folder is an error
    /// only when `required`.
    private static func yamlFiles(in folder: String, required: Bool) throws(ConfigurationError) -> [(
        file: String, yaml: String
    )] {
        var names: [String] = []
        guard let handle = opendir(folder) else {
            if !required && errno == ENOENT { return [] }
            throw ConfigurationError(problems: ["\(folder): cannot read the folder: \(errnoText())"])
        }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".yaml") || name.hasSuffix(".yml"), !name.hasPrefix(".") { names.append(name) }
        }
        closedir(handle)
        var files: [(file: String, yaml: String)] = []
        for name in names.sorted() {
            let file = folder + "/" + name
            do {
                files.append((file, String(decoding: try readWholeFile(file) ?? [], as: UTF8.self)))
            } catch {
                throw ConfigurationError(problems: ["\(file): cannot read: \(error)"])
            }
        }
        return files
    }

    /// Validates configuration text as if read from the named files (for tests and tools).
    public static func parse(
        serverYAML: String?,
        serverFile: String = "config/server.yaml",
        dashboards dashboardFiles: [(file: String, yaml: String)],
        playlists playlistFiles: [(file: String, yaml: String)] = [],
        sources sourceFiles: [(file: String, yaml: String)] = [],
        webhooks webhookFiles: [(file: String, yaml: String)] = []
    ) throws(ConfigurationError) -> RollboardConfiguration {
        let problems = ConfigurationProblems()
        var server = ServerSettings()
        if let serverYAML, let node = compose(serverYAML, file: serverFile, problems: problems) {
            server = ServerSettings(node: node, file: serverFile, problems: problems)
        }
        if dashboardFiles.isEmpty {
            problems.report("config/dashboards", "", "no dashboard files (*.yaml)")
        }
        var dashboards: [DashboardConfiguration] = []
        for (file, yaml) in dashboardFiles {
            guard let node = compose(yaml, file: file, problems: problems),
                let dashboard = DashboardConfiguration(node: node, file: file, problems: problems)
            else { continue }
            if let other = dashboards.first(where: { $0.id == dashboard.id }) {
                problems.report(file, "id", "duplicate dashboard id \"\(dashboard.id)\", already used by \(other.file)")
                continue
            }
            dashboards.append(dashboard)
        }
        let catalog = MetricCatalog(dashboards: dashboards) { dashboard, tile, first in
            problems.report(
                "\(dashboard.file): tile \"\(tile.id)\"", "metric",
                "\"\(tile.metric)\" is shown by \(first.tile.type.rawValue) tile \"\(first.tile.id)\" of dashboard "
                    + "\"\(first.dashboard)\", so it cannot also be shown by a \(tile.type.rawValue) tile"
            )
        }
        for (index, token) in server.producerTokens.enumerated() {
            for id in (token.metrics ?? []).sorted() where catalog.kind(of: id) == nil {
                problems.report(serverFile, "producerTokens[\(index)].metrics", "unknown id \"\(id)\"")
            }
        }
        var playlists: [PlaylistConfiguration] = []
        for (file, yaml) in playlistFiles {
            guard let node = compose(yaml, file: file, problems: problems),
                let playlist = PlaylistConfiguration(
                    node: node, file: file, dashboards: Set(dashboards.map(\.id)), problems: problems)
            else { continue }
            if let other = playlists.first(where: { $0.id == playlist.id }) {
                problems.report(file, "id", "duplicate playlist id \"\(playlist.id)\", already used by \(other.file)")
                continue
            }
            playlists.append(playlist)
        }
        let sources = SourceConfiguration.all(in: sourceFiles, catalog: catalog, problems: problems)
        let webhooks = WebhookConfiguration.all(in: webhookFiles, catalog: catalog, problems: problems)
        guard problems.isEmpty else { throw ConfigurationError(problems: problems.lines) }
        return RollboardConfiguration(
            server: server, dashboards: dashboards, playlists: playlists, catalog: catalog, sources: sources,
            webhooks: webhooks)
    }

    /// The entries of `files` in order, each parsed by `make`; an entry whose id an earlier one has is reported (a
    /// `noun` id used twice) and left out.
    static func eachOnce<Entry>(
        _ files: [(file: String, yaml: String)], noun: String, problems: ConfigurationProblems,
        id: (Entry) -> String, file: (Entry) -> String, make: (Node, String) -> Entry?
    ) -> [Entry] {
        var entries: [Entry] = []
        for (path, yaml) in files {
            guard let node = compose(yaml, file: path, problems: problems), let entry = make(node, path) else { continue }
            if let other = entries.first(where: { id($0) == id(entry) }) {
                problems.report(path, "id", "duplicate \(noun) id \"\(id(entry))\", already used by \(file(other))")
                continue
            }
            entries.append(entry)
        }
        return entries
    }

    static func compose(_ yaml: String, file: String, problems: ConfigurationProblems) -> Node? {
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                problems.report(file, "", "is empty")
                return nil
            }
            return node
        } catch {
            problems.report(file, "", "invalid YAML: \(error)")
            return nil
        }
    }

    /// The same configuration with other server settings (command-line overrides such as `--port`).
    public func replacingServer(_ settings: ServerSettings) -> RollboardConfiguration {
        RollboardConfiguration(
            server: settings, dashboards: dashboards, playlists: playlists, catalog: catalog, sources: sources,
            webhooks: webhooks)
    }

    /// The playlist with the given id.
    public func playlist(_ id: String) -> PlaylistConfiguration? {
        playlists.first { $0.id == id }
    }

    /// The dashboard with the given id.
    public func dashboard(_ id: String) -> DashboardConfiguration? {
        dashboards.first { $0.id == id }
    }

    /// Who may watch `dashboard`: its own `access`, else the server's `dashboardAccess`.
    public func access(of dashboard: DashboardConfiguration) -> DashboardAccess {
        dashboard.access ?? server.dashboardAccess
    }

    /// Seconds after which `tile` shows as stale: its own `staleAfter`, else the server's; `nil` = never.
    public func staleAfter(_ tile: TileConfiguration) -> Double? {
        tile.staleAfter ?? server.staleAfter
    }

    /// Whether `tile` shows as stale at `now` when its value was last committed at `updatedAt` (both seconds since
    /// 1970; `nil`: it has no value yet): a tile whose value can go stale (``TileType/showsStaleness``) and that has a
    /// ``staleAfter(_:)`` is stale once its value is that many seconds old, or while it has none. The one rule for
    /// the admin API's stale tiles; the wall page marks its tiles by it too (`public/js/board/staleness.js`).
    public func isStale(_ tile: TileConfiguration, updatedAt: Double?, now: Double) -> Bool {
        guard tile.type.showsStaleness, let seconds = staleAfter(tile), seconds > 0 else { return false }
        guard let updatedAt else { return true }
        return now - updatedAt >= seconds
    }

    /// How far a screen of `tile` may fall behind its newest value, in seconds: its own `maxLag`, else twice the
    /// longest move it plays by itself (an odometer's `maxDuration`, a counter's or wheel's `duration`, a wheel at least
    /// 1 s); `nil` (no bound but the backlog) for an odometer playing the article's uncapped timeline, carousels and
    /// text tiles.
    public func maxLag(_ tile: TileConfiguration) -> Double? {
        if let maxLag = tile.maxLag { return maxLag }
        switch tile.options {
        case .odometer(let options): return options.maxDuration > 0 ? 2 * options.maxDuration : nil
        case .counter(let options): return 2 * options.duration
        case .gauge(let options): return 2 * options.number.duration
        case .leaderboard(let options): return 2 * options.number.duration
        case .wheel(let options): return max(2 * options.duration, 1)
        case .chart(let options): return 2 * options.maxDuration
        case .carousel, .text, .clock: return nil
        }
    }

    /// The animation backlog of `tile`: its own, else the server's `limits.backlog`.
    public func backlog(_ tile: TileConfiguration) -> Int {
        tile.backlog ?? server.limits.backlog
    }
}
