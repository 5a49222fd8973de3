package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardSources
package import RollboardStore

/// The configuration in force at one instant and the access rules built from it, taken once per request or
/// WebSocket upgrade so that a reload in between cannot mix two configurations in one answer.
package struct ConfigurationSnapshot: Sendable {
    let configuration: RollboardConfiguration
    /// Who may read what under `configuration`.
    package let access: ViewerAccess
}
