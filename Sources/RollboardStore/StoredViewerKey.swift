package import RollboardCore
package import RollboardConfig

/// An operator's committed change to the viewer keys: a key created (only its secret's SHA-256 travels) or revoked.
/// Through the change log, so every node of a cluster opens screens with the same keys and closes a revoked key's
/// screens; the latest record per key is kept in the snapshot (a revocation as a tombstone).
public struct StoredViewerKey: StoredActionPart {
    public enum Action: Sendable, Equatable {
        case create(ViewerKey)
        case revoke(id: String)
    }

    public var action: Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC: when the change was committed.
    public var updatedAt: Double

    /// The id of the key the change is about.
    public var keyID: String {
        switch action {
        case .create(let key): key.id
        case .revoke(let id): id
        }
    }

    /// The key in force after this change, `nil` after a revocation.
    package var key: ViewerKey? {
        if case .create(let key) = action { key } else { nil }
    }
}

extension StoredViewerKey {
    /// `seq: UInt64 | action: UInt8 (0 create, 1 revoke) | id | create only: name, dashboard count: UInt32 with
    /// 0xFFFFFFFF for every dashboard, the dashboard ids, createdAt: Float64, SHA-256 hex | updatedAt: Float64`.
    static func write(_ action: Action, into writer: inout BinaryWriter) {
        switch action {
        case .create(let key):
            writer.write(UInt8(0))
            writer.write(key.id)
            writer.write(key.name)
            if let dashboards = key.dashboards {
                writer.write(UInt32(dashboards.count))
                for dashboard in dashboards { writer.write(dashboard) }
            } else {
                writer.write(UInt32.max)
            }
            writer.write(key.createdAt)
            writer.write(key.digest)
        case .revoke(let id):
            writer.write(UInt8(1))
            writer.write(id)
        }
    }

    static func readAction(tag kind: UInt8, id: String, from reader: inout BinaryReader) -> Action? {
        let action: Action
        switch kind {
        case 0:
            guard let name = reader.readString(), let count = reader.read(UInt32.self) else { return nil }
            var dashboards: [String]?
            if count != UInt32.max {
                guard count <= 100_000 else { return nil }
                var ids: [String] = []
                for _ in 0..<count {
                    guard let dashboard = reader.readString() else { return nil }
                    ids.append(dashboard)
                }
                dashboards = ids
            }
            guard let createdAt = reader.readDouble(), let digest = reader.readString(), digest.utf8.count == 64
            else { return nil }
            action = .create(
                ViewerKey(id: id, name: name, dashboards: dashboards, createdAt: createdAt, digest: digest))
        case 1:
            action = .revoke(id: id)
        default:
            return nil
        }
        return action
    }
}
