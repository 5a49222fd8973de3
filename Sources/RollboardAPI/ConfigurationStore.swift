public import Logging
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardNet
public import RollboardRedisLog
public import RollboardStore
import Synchronization

/// The configuration in force and who may read what under it, swapped whole by a reload.
///
/// Every request takes one ``snapshot``; ``apply(_:to:)`` puts a reloaded configuration in force in one step: the
/// dashboards' hubs take it, the snapshot is replaced, and every open screen is judged again by the new access rules.
public final class ConfigurationStore: Sendable {
    private let live: Mutex<ConfigurationSnapshot>
    private let viewerKeys: ViewerKeys?
    private let readerTokens: [[UInt8]]
    private let logger: Logger
    /// One reload at a time, so the hubs and the snapshot always take the same configuration last.
    private let applying = Mutex(())

    /// - Parameters:
    ///   - viewerKeys: the viewer keys that open dashboards that are not public (`nil`: none).
    ///   - readerTokens: the producer and admin tokens, which read every dashboard and value.
    public init(
        _ configuration: RollboardConfiguration, viewerKeys: ViewerKeys? = nil, readerTokens: [String] = [],
        logger: Logger
    ) {
        let readerTokens = readerTokens.map { Array($0.utf8) }
        self.readerTokens = readerTokens
        self.viewerKeys = viewerKeys
        self.logger = logger
        self.live = Mutex(
            ConfigurationSnapshot(
                configuration: configuration,
                access: ViewerAccess(configuration: configuration, keys: viewerKeys, readerTokens: readerTokens)))
    }

    /// The configuration in force with its access rules.
    package var snapshot: ConfigurationSnapshot {
        live.withLock { $0 }
    }

    /// The configuration in force: the one the server started with, or the latest reload's.
    public var configuration: RollboardConfiguration {
        snapshot.configuration
    }

    /// Puts `configuration` in force: `dashboards` (when given) reconfigures its hubs first, and refuses it by
    /// throwing, which leaves everything as it was; then every request sees the new configuration, and the open
    /// screens it no longer admits are closed with 1008.
    @discardableResult
    public func apply(
        _ configuration: RollboardConfiguration, to dashboards: DashboardDirectory? = nil
    ) throws -> DashboardDirectory.ReloadReport? {
        try applying.withLock { _ in
            let report = try dashboards?.reconfigure(configuration)
            let access = ViewerAccess(configuration: configuration, keys: viewerKeys, readerTokens: readerTokens)
            live.withLock { $0 = ConfigurationSnapshot(configuration: configuration, access: access) }
            if let viewerKeys {
                let closed = viewerKeys.screens.recheck(access)
                if closed > 0 {
                    logger.notice(
                        "screens closed: the reloaded configuration no longer admits them",
                        metadata: ["screens": "\(closed)"])
                }
            }
            return report
        }
    }
}
