package import RollboardConfig
package import RollboardCore
package import RollboardNet
package import RollboardStore
import Synchronization

/// Every open screen with what let it in: what it watches and the credential it presented. When access narrows (a
/// reload makes a dashboard `access: key`, a key no longer grants a dashboard, a key is revoked on any node), every
/// screen is judged again as at connect, and those no longer admitted are closed with 1008.
package final class AdmittedScreens: Sendable {
    /// What a screen watches.
    package enum Target: Sendable, Equatable, Hashable {
        case dashboard(String)
        case playlist(String)
    }

    /// What a screen presented when it connected.
    package enum Credential: Sendable, Equatable {
        case none
        /// A producer or admin token: these are only changed by a restart.
        case token
        /// Viewer key `id`, judged by the keys in force each time.
        case key(id: String)
        /// Something that was neither a token nor a key in force (the dashboard was public).
        case unknown

        /// The viewer key's id, for a key.
        package var keyID: String? {
            if case .key(let id) = self { id } else { nil }
        }
    }

    private struct Screen {
        let socket: WebSocket
        let target: Target
        let credential: Credential
    }

    private let screens = Mutex<[ObjectIdentifier: Screen]>([:])

    /// Records `socket`, which was admitted to `target` with `credential`.
    package func add(_ socket: WebSocket, target: Target, credential: Credential) {
        screens.withLock { $0[ObjectIdentifier(socket)] = Screen(socket: socket, target: target, credential: credential) }
    }

    /// Forgets `socket`, which closed.
    package func remove(_ socket: WebSocket) {
        screens.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(socket)) }
    }

    /// How many open screens came in with viewer key `id`.
    func count(ofKey id: String) -> Int {
        screens.withLock { $0.values.filter { $0.credential == .key(id: id) }.count }
    }

    /// Judges every screen again by `access` (the configuration and keys in force) and closes with 1008 those it no
    /// longer admits; returns how many it closed. A target that is no longer configured is left alone (its hub
    /// closes it with 4404).
    @discardableResult
    package func recheck(_ access: ViewerAccess) -> Int {
        let all = screens.withLock { Array($0.values) }
        var closed = 0
        for screen in all {
            guard let reason = refusal(of: screen, by: access) else { continue }
            remove(screen.socket)
            screen.socket.close(code: .policyViolation, reason: reason)
            closed += 1
        }
        return closed
    }

    /// The close reason if `access` no longer admits `screen`, else `nil`.
    private func refusal(of screen: Screen, by access: ViewerAccess) -> String? {
        let credential: ViewerAccess.Credential
        var revoked = false
        switch screen.credential {
        case .none: credential = .none
        case .token: credential = .token
        case .unknown: credential = .unknown
        case .key(let id):
            if let key = access.keys?.key(id) {
                credential = .key(key)
            } else {
                credential = .unknown
                revoked = true
            }
        }
        let decision: AccessDecision
        switch screen.target {
        case .dashboard(let id):
            guard let dashboard = access.configuration.dashboard(id) else { return nil }
            decision = access.decide(dashboard, credential)
        case .playlist(let id):
            guard let playlist = access.configuration.playlist(id) else { return nil }
            decision = access.decide(playlist, credential)
        }
        guard let reason = decision.closeReason else { return nil }
        return revoked ? "viewer key revoked" : reason
    }
}

extension AccessDecision {
    /// The reason a screen refused (or no longer admitted) is closed with, with 1008; `nil` when granted.
    package var closeReason: String? {
        switch self {
        case .granted: nil
        case .keyRequired: "viewer key required"
        case .keyRefused: "viewer key refused"
        }
    }
}
