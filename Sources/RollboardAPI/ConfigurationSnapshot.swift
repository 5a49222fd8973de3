package import RollboardAccess
package import RollboardConfig
package import RollboardHub
import RollboardNet

/// The configuration in force at one instant and the access rules built from it, taken once per request or
/// WebSocket upgrade so that a reload in between cannot mix two configurations in one answer.
package struct ConfigurationSnapshot: Sendable {
    let configuration: RollboardConfiguration
    /// Who may read what under `configuration`.
    package let access: ViewerAccess
}
