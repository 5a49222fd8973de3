package import RollboardConfig

/// A viewer key as the server keeps it: its id, name and grants, and only the SHA-256 of the secret.
public struct ViewerKey: Sendable, Equatable {
    /// The public handle used to list and revoke the key (`k` and 12 hex digits); not a secret.
    public var id: String
    /// What the key is for ("lobby TV"), as the admin named it.
    public var name: String
    /// The dashboards the key opens; `nil` means every dashboard.
    public var dashboards: [String]?
    /// When the key was created, in seconds since 1970.
    public var createdAt: Double
    /// The SHA-256 of the secret, as lowercase hex.
    package var digest: String

    /// Whether the key opens dashboard `id`.
    public func grants(_ dashboard: String) -> Bool {
        dashboards?.contains(dashboard) ?? true
    }

    package init(id: String, name: String, dashboards: [String]?, createdAt: Double, digest: String) {
        self.id = id
        self.name = name
        self.dashboards = dashboards
        self.createdAt = createdAt
        self.digest = digest
    }
}
