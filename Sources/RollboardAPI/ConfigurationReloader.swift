public import Logging
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardNet
public import RollboardSources
public import RollboardStore
import Synchronization

/// Reloads `config/` while the server runs (SIGHUP, `POST /api/v1/admin/reload`). A configuration that validates
/// replaces the one in force: dashboards and playlists (changed ones send their screens a fresh `hello`, removed ones
/// close them with 4404), what values must fit, access, motion, frame rates. One with problems is refused whole, its
/// problems named by file, tile and field, and the one in force stays. Settings that only a restart can change
/// (address, port, TLS files, data folder, tokens, allowed origins, store and connection limits) keep their running
/// values and are reported.
public final class ConfigurationReloader: Sendable {
    /// What a reload did.
    public enum Outcome: Sendable, Equatable {
        /// The new configuration is in force; `needsRestart` names the changed settings that wait for a restart.
        case reloaded(DashboardDirectory.ReloadReport, needsRestart: [String])
        /// The configuration has problems; nothing changed.
        case refused(problems: [String])
    }

    private let directory: String
    private let configurations: ConfigurationStore
    private let dashboards: DashboardDirectory
    private let logger: Logger
    /// Takes the reloaded sources (the scheduler and, with Redis, the leases).
    private let applySources: (@Sendable ([SourceConfiguration]) -> Void)?
    /// `server.yaml` as last loaded, before command-line overrides: what a restart-only setting is compared with.
    private let fileSettings: Mutex<ServerSettings>
    /// One reload at a time.
    private let reloading = Mutex(())

    /// - Parameters:
    ///   - directory: the configuration folder the server was started with.
    ///   - fileSettings: its `server.yaml` settings as loaded at start, before command-line overrides.
    public init(
        directory: String, fileSettings: ServerSettings, configurations: ConfigurationStore, dashboards: DashboardDirectory,
        applySources: (@Sendable ([SourceConfiguration]) -> Void)? = nil, logger: Logger
    ) {
        self.applySources = applySources
        self.directory = directory
        self.fileSettings = Mutex(fileSettings)
        self.configurations = configurations
        self.dashboards = dashboards
        self.logger = logger
    }

    /// Reads and validates the folder again and puts it in force, or refuses it; blocks while it reads the files.
    public func reload() -> Outcome {
        reloading.withLock { _ in
            let loaded: RollboardConfiguration
            do throws(ConfigurationError) {
                loaded = try RollboardConfiguration.load(directory: directory)
            } catch {
                logger.error(
                    "configuration reload refused; the configuration in force stays",
                    metadata: ["problems": "\(error.problems.joined(separator: "; "))"])
                return .refused(problems: error.problems)
            }
            let running = configurations.configuration.server
            let before = fileSettings.withLock { $0 }
            let configuration = loaded.replacingServer(Self.merged(file: loaded.server, running: running))
            let report: DashboardDirectory.ReloadReport
            do {
                // One step: the hubs, every request's snapshot and the open screens' access all take it.
                report = try configurations.apply(configuration, to: dashboards) ?? DashboardDirectory.ReloadReport()
            } catch {
                logger.error("configuration reload refused; the configuration in force stays", metadata: ["error": "\(error)"])
                return .refused(problems: ["\(error)"])
            }
            fileSettings.withLock { $0 = loaded.server }
            applySources?(configuration.sources)
            let needsRestart = Self.restartOnly(before: before, after: loaded.server)
            logger.notice(
                "configuration reloaded",
                metadata: [
                    "added": "\(report.added)", "changed": "\(report.changed)", "removed": "\(report.removed)",
                    "playlists": "+\(report.addedPlaylists) ~\(report.changedPlaylists) -\(report.removedPlaylists)",
                    "needsRestart": "\(needsRestart)",
                ])
            return .reloaded(report, needsRestart: needsRestart)
        }
    }

    /// A setting only a restart can change: its name in `server.yaml`, how to keep the running value, and whether
    /// two loads differ in it.
    struct RestartOnlySetting: Sendable {
        let name: String
        let keep: @Sendable (_ merged: inout ServerSettings, _ running: ServerSettings) -> Void
        let differs: @Sendable (_ before: ServerSettings, _ after: ServerSettings) -> Bool

        init<Value: Equatable & Sendable>(_ name: String, _ path: any WritableKeyPath<ServerSettings, Value> & Sendable) {
            self.name = name
            keep = { merged, running in merged[keyPath: path] = running[keyPath: path] }
            differs = { before, after in before[keyPath: path] != after[keyPath: path] }
        }
    }

    /// Every setting a reload leaves as it is (listed once), in `server.yaml`'s order.
    static let restartOnlySettings: [RestartOnlySetting] = [
        .init("host", \.host), .init("port", \.port), .init("tls", \.tls), .init("dataDirectory", \.dataDirectory),
        .init("producerTokens", \.producerTokens), .init("adminTokens", \.adminTokens),
        .init("allowedOrigins", \.allowedOrigins), .init("historyLength", \.historyLength),
        .init("seriesRetention", \.seriesRetention), .init("journalCompactionBytes", \.journalCompactionBytes),
        .init("idempotencyMemoryBytes", \.idempotencyMemoryBytes),
        .init("shutdownTimeout", \.shutdownTimeout), .init("redis", \.redis),
    ]

    /// The limits a reload leaves as they are (the listeners' and connections').
    static let restartOnlyLimits: [any WritableKeyPath<ServerSettings.Limits, Int> & Sendable] = [
        \.maxConnections, \.maxConnectionsPerAddress, \.outboundHighWatermark, \.outboundLowWatermark,
    ]

    /// The settings of `file`, with those only a restart can change kept as `running` has them.
    static func merged(file: ServerSettings, running: ServerSettings) -> ServerSettings {
        var merged = file
        for setting in restartOnlySettings { setting.keep(&merged, running) }
        for limit in restartOnlyLimits { merged.limits[keyPath: limit] = running.limits[keyPath: limit] }
        merged.limits.producerRequestsPerSecond = running.limits.producerRequestsPerSecond
        return merged
    }

    /// The names of the restart-only settings that differ between two loads of `server.yaml`.
    static func restartOnly(before: ServerSettings, after: ServerSettings) -> [String] {
        let merged = merged(file: after, running: before)
        return restartOnlySettings.filter { $0.differs(before, after) }.map(\.name)
            + (merged.limits != after.limits ? ["limits"] : [])
    }
}

extension ConfigurationReloader.Outcome {
    /// 200 with what changed, or 422 `configuration_refused` with every problem.
    var response: HTTPResponse {
        switch self {
        case .reloaded(let report, let needsRestart):
            let list = { (ids: [String]) in JSONValue.array(ids.map(JSONValue.string)) }
            let body = JSONValue.object([
                JSONMember("reloaded", .bool(true)),
                JSONMember("added", list(report.added)),
                JSONMember("changed", list(report.changed)),
                JSONMember("removed", list(report.removed)),
                JSONMember("addedPlaylists", list(report.addedPlaylists)),
                JSONMember("changedPlaylists", list(report.changedPlaylists)),
                JSONMember("removedPlaylists", list(report.removedPlaylists)),
                JSONMember("needsRestart", list(needsRestart)),
            ])
            return HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized)
        case .refused(let problems):
            let body = JSONValue.object([
                JSONMember("error", .string("configuration_refused")),
                JSONMember(
                    "detail",
                    .string("the configuration has \(problems.count) problem(s); the configuration in force stays")),
                JSONMember("problems", .array(problems.map(JSONValue.string))),
            ])
            return HTTPResponse(status: .unprocessableContent, contentType: "application/json", text: body.serialized)
        }
    }
}
