package import RollboardCore

/// Who may watch a dashboard and read its values.
public enum DashboardAccess: String, Sendable, Equatable, CaseIterable {
    /// Anyone who reaches the port (`access: public`).
    case everyone = "public"
    /// Only a screen or reader with a viewer key that grants the dashboard, or a producer or admin token
    /// (`access: key`).
    case viewerKey = "key"
}
