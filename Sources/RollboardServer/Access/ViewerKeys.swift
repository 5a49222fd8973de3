#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RollboardNet
import Synchronization

/// The viewer keys in force and the screens that use them.
///
/// Keys are created and revoked while the server runs (the admin API). Only each secret's SHA-256 is kept, in
/// `viewer-keys.json` in the data folder (mode 0600, replaced atomically), so a change is durable before it is
/// answered. Revoking a key closes every screen that opened with it, with 1008, at once.
public final class ViewerKeys: Sendable {
    /// The file name, inside the data folder.
    public static let fileName = "viewer-keys.json"
    /// Prefix of every secret, so a leaked one is recognisable in a scan.
    public static let secretPrefix = "rbv_"

    /// Where the keys are kept; `nil` keeps them in memory only.
    public let path: String?
    private let state: Mutex<State>

    private struct State {
        var keys: [ViewerKey]
        /// The open screens of each key id.
        var screens: [String: [ObjectIdentifier: WebSocket]] = [:]
    }

    /// Loads the keys stored at `path` (none when the file does not exist yet); `nil` keeps keys in memory only.
    public init(path: String?) throws(ViewerKeyError) {
        self.path = path
        var keys: [ViewerKey] = []
        if let path { keys = try Self.load(path) }
        state = Mutex(State(keys: keys))
    }

    /// Every key, oldest first (without secrets: the server has none to show).
    public var all: [ViewerKey] {
        state.withLock { $0.keys }
    }

    /// How many screens are open with key `id`.
    public func screenCount(of id: String) -> Int {
        state.withLock { $0.screens[id]?.count ?? 0 }
    }

    /// Creates a key for `dashboards` (`nil`: every dashboard), stores it durably, and returns it with its secret,
    /// which is never stored and cannot be shown again.
    public func create(name: String, dashboards: [String]?, now: Double) throws(ViewerKeyError) -> (
        key: ViewerKey, secret: String
    ) {
        let secret: String
        let id: String
        do {
            secret = Self.secretPrefix + (try SecureRandom.hex(32))
            id = "k" + (try SecureRandom.hex(6))
        } catch {
            throw ViewerKeyError(description: "no random bytes for a key: \(error)")
        }
        let key = ViewerKey(
            id: id, name: name, dashboards: dashboards, createdAt: now, digest: SHA256.hex(secret))
        try state.withLock { state throws(ViewerKeyError) in
            try save(state.keys + [key])
            state.keys.append(key)
        }
        return (key, secret)
    }

    /// Revokes key `id` durably and closes its screens with 1008; returns the key and how many screens were
    /// closed, or `nil` when there is no such key.
    public func revoke(_ id: String) throws(ViewerKeyError) -> (key: ViewerKey, closedScreens: Int)? {
        let revoked = try state.withLock { state throws(ViewerKeyError) -> (ViewerKey, [WebSocket])? in
            guard let index = state.keys.firstIndex(where: { $0.id == id }) else { return nil }
            var remaining = state.keys
            let key = remaining.remove(at: index)
            try save(remaining)
            state.keys = remaining
            let screens = state.screens.removeValue(forKey: id).map { Array($0.values) } ?? []
            return (key, screens)
        }
        guard let (key, screens) = revoked else { return nil }
        for screen in screens { screen.close(code: .policyViolation, reason: "viewer key revoked") }
        return (key, screens.count)
    }

    /// The key whose secret is `secret`, if any. Every key's digest is compared in full, so the time taken does not
    /// depend on which key (if any) matches.
    func match(_ secret: String) -> ViewerKey? {
        let digest = Array(SHA256.hex(secret).utf8)
        return state.withLock { state in
            var found: ViewerKey?
            for key in state.keys where ConstantTime.equals(Array(key.digest.utf8), digest) { found = key }
            return found
        }
    }

    /// Records that `socket` is open with key `id`, unless the key was revoked meanwhile; returns whether it was.
    func attach(_ socket: WebSocket, to id: String) -> Bool {
        state.withLock { state in
            guard state.keys.contains(where: { $0.id == id }) else { return false }
            state.screens[id, default: [:]][ObjectIdentifier(socket)] = socket
            return true
        }
    }

    /// Forgets `socket`, which closed.
    func detach(_ socket: WebSocket, from id: String) {
        state.withLock { state in
            state.screens[id]?.removeValue(forKey: ObjectIdentifier(socket))
            if state.screens[id]?.isEmpty == true { state.screens.removeValue(forKey: id) }
        }
    }

    // MARK: The file

    private func save(_ keys: [ViewerKey]) throws(ViewerKeyError) {
        guard let path else { return }
        let document = JSONValue.object([JSONMember("keys", .array(keys.map(Self.json)))])
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if let problem = createDirectories(parentOf: path) { throw ViewerKeyError(description: problem) }
        do {
            try writeFileAtomically(path, Array((document.serialized + "\n").utf8), directory: directory.isEmpty ? "." : directory)
        } catch {
            throw ViewerKeyError(description: "\(path): cannot write: \(error)")
        }
    }

    private static func json(_ key: ViewerKey) -> JSONValue {
        .object([
            JSONMember("id", .string(key.id)),
            JSONMember("name", .string(key.name)),
            JSONMember("dashboards", key.dashboards.map { .array($0.map(JSONValue.string)) } ?? .null),
            JSONMember("createdAt", .number(key.createdAt)),
            JSONMember("sha256", .string(key.digest)),
        ])
    }

    private static func load(_ path: String) throws(ViewerKeyError) -> [ViewerKey] {
        let bytes: [UInt8]?
        do {
            bytes = try readWholeFile(path)
        } catch {
            throw ViewerKeyError(description: "\(path): cannot read: \(error)")
        }
        guard let bytes else { return [] }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw ViewerKeyError(description: "\(path): not valid JSON (\(error)); restore it from a backup or delete it")
        }
        guard case .array(let items)? = document["keys"] else {
            throw ViewerKeyError(description: "\(path): no \"keys\" array")
        }
        var keys: [ViewerKey] = []
        for (index, item) in items.enumerated() {
            guard case .string(let id)? = item["id"], case .string(let name)? = item["name"],
                case .number(let created)? = item["createdAt"], case .string(let digest)? = item["sha256"],
                digest.utf8.count == 64
            else {
                throw ViewerKeyError(description: "\(path): keys[\(index)] is incomplete")
            }
            var dashboards: [String]?
            if case .array(let names)? = item["dashboards"] {
                dashboards = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
            keys.append(
                ViewerKey(id: id, name: name, dashboards: dashboards, createdAt: created.double, digest: digest))
        }
        return keys
    }
}
