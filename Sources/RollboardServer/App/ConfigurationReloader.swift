public import Logging
import RollboardNet
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

    /// The settings of `file`, with those only a restart can change kept as `running` has them.
    static func merged(file: ServerSettings, running: ServerSettings) -> ServerSettings {
        var merged = file
        merged.host = running.host
        merged.port = running.port
        merged.tls = running.tls
        merged.dataDirectory = running.dataDirectory
        merged.producerTokens = running.producerTokens
        merged.adminTokens = running.adminTokens
        merged.allowedOrigins = running.allowedOrigins
        merged.historyLength = running.historyLength
        merged.seriesRetention = running.seriesRetention
        merged.journalCompactionBytes = running.journalCompactionBytes
        merged.shutdownTimeout = running.shutdownTimeout
        merged.redis = running.redis
        merged.limits.maxConnections = running.limits.maxConnections
        merged.limits.maxConnectionsPerAddress = running.limits.maxConnectionsPerAddress
        merged.limits.outboundHighWatermark = running.limits.outboundHighWatermark
        merged.limits.outboundLowWatermark = running.limits.outboundLowWatermark
        merged.limits.producerRequestsPerSecond = running.limits.producerRequestsPerSecond
        return merged
    }

    /// The names of the restart-only settings that differ between two loads of `server.yaml`.
    static func restartOnly(before: ServerSettings, after: ServerSettings) -> [String] {
        let merged = merged(file: after, running: before)
        var names: [String] = []
        if before.host != after.host { names.append("host") }
        if before.port != after.port { names.append("port") }
        if before.tls != after.tls { names.append("tls") }
        if before.dataDirectory != after.dataDirectory { names.append("dataDirectory") }
        if before.producerTokens != after.producerTokens { names.append("producerTokens") }
        if before.adminTokens != after.adminTokens { names.append("adminTokens") }
        if before.allowedOrigins != after.allowedOrigins { names.append("allowedOrigins") }
        if before.historyLength != after.historyLength { names.append("historyLength") }
        if before.seriesRetention != after.seriesRetention { names.append("seriesRetention") }
        if before.journalCompactionBytes != after.journalCompactionBytes { names.append("journalCompactionBytes") }
        if before.shutdownTimeout != after.shutdownTimeout { names.append("shutdownTimeout") }
        if before.redis != after.redis { names.append("redis") }
        if merged.limits != after.limits { names.append("limits") }
        return names
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
