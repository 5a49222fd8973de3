
/// Whether a request may see a dashboard (or a value it shows).
package enum AccessDecision: Equatable {
    /// Yes; `viewerKey` is the id of the viewer key that opened it, if one was needed.
    case granted(viewerKey: String?)
    /// No credential was presented and the dashboard is not public: 401.
    case keyRequired
    /// The credential is unknown, revoked, or does not open this dashboard: 403.
    case keyRefused

    package var isGranted: Bool {
        if case .granted = self { true } else { false }
    }
}
