package import RollboardConfig
package import RollboardCore
package import RollboardNet
package import RollboardStore

/// Who may see what: each dashboard's access (`public` or `key`), the viewer keys, and the producer and admin tokens,
/// which read everything.
///
/// A request presents a viewer key as `?key=…` or, like any token, as `Authorization: Bearer …`.
package struct ViewerAccess: Sendable {
    package let configuration: RollboardConfiguration
    package let keys: ViewerKeys?
    /// Producer and admin tokens: each reads every dashboard and value.
    let readerTokens: [[UInt8]]

    /// What a request presented.
    package enum Credential {
        case none
        /// A producer or admin token.
        case token
        case key(ViewerKey)
        /// Something that is neither a token nor a viewer key in force.
        case unknown
    }

    /// The credential of `request`: its `?key=` or its bearer token.
    ///
    /// What an admitted screen keeps of it is ``Credential/admitted``.
    package func credential(of request: HTTPRequest) -> Credential {
        guard let presented = request.query["key"].flatMap({ $0.isEmpty ? nil : $0 }) ?? request.bearerToken else {
            return .none
        }
        let bytes = Array(presented.utf8)
        var isToken = false
        for token in readerTokens where ConstantTime.equals(token, bytes) { isToken = true }
        if isToken { return .token }
        if let key = keys?.match(presented) { return .key(key) }
        return .unknown
    }

    /// Whether `credential` may see dashboard `dashboard`.
    package func decide(_ dashboard: DashboardConfiguration, _ credential: Credential) -> AccessDecision {
        switch (configuration.access(of: dashboard), credential) {
        case (.everyone, _), (_, .token): return .granted(viewerKey: nil)
        case (.viewerKey, .key(let key)): return key.grants(dashboard.id) ? .granted(viewerKey: key.id) : .keyRefused
        case (.viewerKey, .none): return .keyRequired
        case (.viewerKey, .unknown): return .keyRefused
        }
    }

    /// Whether `credential` may see playlist `playlist`: it may when it may see every dashboard of it.
    package func decide(_ playlist: PlaylistConfiguration, _ credential: Credential) -> AccessDecision {
        var decision = AccessDecision.granted(viewerKey: nil)
        for entry in playlist.entries {
            guard let dashboard = configuration.dashboard(entry.dashboard) else { continue }
            switch decide(dashboard, credential) {
            case .granted(let key?): decision = .granted(viewerKey: key)
            case .granted(nil): break
            case let refusal: return refusal
            }
        }
        return decision
    }

    /// Whether `credential` may read id `id` (a metric or wheel): it may when it may see some dashboard that shows it.
    package func decide(valueOf id: String, _ credential: Credential) -> AccessDecision {
        var decision = AccessDecision.keyRefused
        for reference in configuration.catalog.tiles[id] ?? [] {
            guard let dashboard = configuration.dashboard(reference.dashboard) else { continue }
            switch decide(dashboard, credential) {
            case .granted: return .granted(viewerKey: nil)
            case .keyRequired: decision = .keyRequired
            case .keyRefused: break
            }
        }
        return decision
    }

    /// The playlists `credential` may see (every dashboard of them), in configuration order.
    package func visiblePlaylists(_ credential: Credential) -> [PlaylistConfiguration] {
        configuration.playlists.filter { decide($0, credential).isGranted }
    }

    /// The dashboards `credential` may see, in configuration order.
    package func visibleDashboards(_ credential: Credential) -> [DashboardConfiguration] {
        configuration.dashboards.filter { decide($0, credential).isGranted }
    }

    package init(configuration: RollboardConfiguration, keys: ViewerKeys?, readerTokens: [[UInt8]]) {
        self.configuration = configuration
        self.keys = keys
        self.readerTokens = readerTokens
    }
}

extension ViewerAccess.Credential {
    /// What an open screen keeps of the credential it presented, to be judged again when access narrows.
    package var admitted: AdmittedScreens.Credential {
        switch self {
        case .none: .none
        case .token: .token
        case .key(let key): .key(id: key.id)
        case .unknown: .unknown
        }
    }
}
