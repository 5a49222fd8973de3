#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
public import Logging
public import RollboardConfig
public import RollboardCore
public import RollboardNet
public import RollboardStore
import Synchronization

/// The viewer keys in force, as the change log has them, and the screens that came in with them.
///
/// Keys are created and revoked while the server runs (the admin API), as changes through the change log: durable
/// before they are answered, and with Redis the same on every node — a key made on one node opens screens on every
/// node, a revocation closes that key's screens on every node (with 1008), and a node that was down learns both when
/// it catches up. Only each secret's SHA-256 is kept. A `viewer-keys.json` left in the data folder by an earlier
/// version is imported into the change log once and renamed `viewer-keys.json.imported`.
public final class ViewerKeys: Sendable {
    /// The file of earlier versions, inside the data folder.
    public static let legacyFileName = ServerSettings.legacyViewerKeysFileName
    /// Prefix of every secret, so a leaked one is recognisable in a scan.
    public static let secretPrefix = "rbv_"

    private let changeLog: any ChangeLog
    private let logger: Logger
    /// Per key id, its latest change applied (a revocation stays as a tombstone).
    private let changes = Mutex<[String: StoredViewerKey]>([:])
    /// Closes the screens a revocation no longer admits, returning how many.
    private let revocationHandler = Mutex<(@Sendable (String) -> Int)?>(nil)
    /// Per revoked key id, how many screens its revocation closed here, until `revoke` answers with it.
    private let closedByRevocation = Mutex<[String: Int]>([:])
    /// Held while a change is applied (see ``apply(_:)``).
    private let applying = Mutex<Void>(())
    /// The open screens and what let them in.
    package let screens = AdmittedScreens()

    /// Follows the viewer keys of `changeLog`.
    public init(changeLog: any ChangeLog, logger: Logger) {
        self.changeLog = changeLog
        self.logger = logger
        changeLog.subscribe { [weak self] change in
            if case .viewerKey(let keyChange) = change { self?.apply(keyChange) }
        }
        for change in changeLog.snapshot.viewerKeyChanges() { apply(change) }
    }

    /// Every key in force, oldest first (without secrets: the server has none to show).
    public var all: [ViewerKey] {
        changes.withLock { $0.values.compactMap(\.key) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// The key `id`, if it is in force.
    package func key(_ id: String) -> ViewerKey? {
        changes.withLock { $0[id]?.key }
    }

    /// How many screens are open with key `id`.
    public func screenCount(of id: String) -> Int {
        screens.count(ofKey: id)
    }

    /// Calls `handler` with a key's id each time a revocation is applied on this node (whichever node made it); it
    /// closes the screens no longer admitted and returns how many.
    package func onRevocation(_ handler: @escaping @Sendable (String) -> Int) {
        revocationHandler.withLock { $0 = handler }
    }

    /// A new key's secret: ``secretPrefix`` and 64 hex digits from the system's cryptographic random source.
    package static func drawSecret() throws -> String {
        secretPrefix + (try SecureRandom.hex(32))
    }

    /// Creates a key for `dashboards` (`nil`: every dashboard) through the change log and answers, once it is durable
    /// and in force on this node, with the key and its secret, which is never stored and cannot be shown again.
    public func create(
        name: String, dashboards: [String]?, now: Double,
        completion: @escaping @Sendable (Result<(key: ViewerKey, secret: String), ViewerKeyError>) -> Void
    ) {
        let secret: String
        do {
            secret = try Self.drawSecret()
        } catch {
            return completion(.failure(ViewerKeyError(description: "no random bytes for a key: \(error)")))
        }
        create(name: name, dashboards: dashboards, digest: SHA256.hex(secret), now: now) { result in
            completion(result.map { ($0, secret) })
        }
    }

    /// Creates a key whose secret (held elsewhere: a TV paired through another node) has the SHA-256 `digest`.
    package func create(
        name: String, dashboards: [String]?, digest: String, now: Double,
        completion: @escaping @Sendable (Result<ViewerKey, ViewerKeyError>) -> Void
    ) {
        let id: String
        do {
            id = "k" + (try SecureRandom.hex(6))
        } catch {
            return completion(.failure(ViewerKeyError(description: "no random bytes for a key: \(error)")))
        }
        let key = ViewerKey(id: id, name: name, dashboards: dashboards, createdAt: now, digest: digest)
        changeLog.changeViewerKey(.create(key)) { [weak self] result in
            switch result {
            case .success(let change):
                self?.apply(change)
                completion(.success(key))
            case .failure(let error):
                completion(.failure(ViewerKeyError(description: "\(error)")))
            }
        }
    }

    /// Revokes key `id` through the change log; once it is durable and applied on this node (its screens closed
    /// with 1008), answers with the key and how many of this node's screens it closed, or `nil` when there is no
    /// such key.
    public func revoke(
        _ id: String,
        completion: @escaping @Sendable (Result<(key: ViewerKey, closedScreens: Int)?, ViewerKeyError>) -> Void
    ) {
        guard let key = key(id) else { return completion(.success(nil)) }
        changeLog.changeViewerKey(.revoke(id: id)) { [weak self] result in
            switch result {
            case .success(let change):
                self?.apply(change)
                let closed = self?.closedByRevocation.withLock { $0.removeValue(forKey: id) } ?? 0
                completion(.success((key, closed)))
            case .failure(let error):
                completion(.failure(ViewerKeyError(description: "\(error)")))
            }
        }
    }

    /// Limits every key in force whose name `isNamed` accepts (a TV's pairing is named after the TV) and that opens a
    /// list of dashboards to exactly `dashboards`, through the change log, one change per key that opened something else (same id and
    /// secret, so the TV keeps its key); answers, once they are durable and in force here, with the ids of the keys
    /// named so. A key for every dashboard is left as it is. The screens open with a key stay open (the TV is about to
    /// move); a key never opens more than its latest target.
    public func limit(
        named isNamed: (String) -> Bool, to dashboards: [String],
        completion: @escaping @Sendable (Result<[String], ViewerKeyError>) -> Void
    ) {
        let named = all.filter { isNamed($0.name) && $0.dashboards != nil }
        let changed = named.filter { $0.dashboards != dashboards }.map { key in
            var key = key
            key.dashboards = dashboards
            return key
        }
        commitKeys(changed[...]) { error in
            completion(error.map { .failure($0) } ?? .success(named.map(\.id)))
        }
    }

    /// Commits each of `keys` as created again, in order; answers with the first failure, if any.
    private func commitKeys(_ keys: ArraySlice<ViewerKey>, completion: @escaping @Sendable (ViewerKeyError?) -> Void) {
        guard let key = keys.first else { return completion(nil) }
        changeLog.changeViewerKey(.create(key)) { [weak self] result in
            switch result {
            case .success(let change):
                guard let self else { return completion(ViewerKeyError(description: "the node is stopping")) }
                apply(change)
                commitKeys(keys.dropFirst(), completion: completion)
            case .failure(let error):
                completion(ViewerKeyError(description: "\(error)"))
            }
        }
    }

    /// The key whose secret is `secret`, if any. Every key's digest is compared in full, so the time taken does not
    /// depend on which key (if any) matches.
    package func match(_ secret: String) -> ViewerKey? {
        let digest = Array(SHA256.hex(secret).utf8)
        let keys = changes.withLock { $0.values.compactMap(\.key) }
        var found: ViewerKey?
        for key in keys where ConstantTime.equals(Array(key.digest.utf8), digest) { found = key }
        return found
    }

    /// Takes a change unless a newer one for the same key was applied (the committing node applies its own change
    /// as soon as it is durable, and again when the log delivers it); a revocation closes the screens it no longer
    /// admits.
    private func apply(_ change: StoredViewerKey) {
        // One at a time: the change log's reader and a revocation's own completion can apply the same change at once,
        // and the completion must find the count of screens the other one closed, not read it before it is written.
        applying.withLock { _ in
            let revoked = changes.withLock { changes -> Bool in
                if let applied = changes[change.keyID], applied.seq >= change.seq { return false }
                let wasInForce = changes[change.keyID]?.key != nil
                changes[change.keyID] = change
                return wasInForce && change.key == nil
            }
            guard revoked, let handler = revocationHandler.withLock({ $0 }) else { return }
            let closed = handler(change.keyID)
            closedByRevocation.withLock { $0[change.keyID] = closed }
        }
    }

    // MARK: Keys of earlier versions

    /// Imports the keys of an earlier version's `viewer-keys.json` at `path` that the change log does not have yet,
    /// then renames the file `….imported`; logs what it did. Nothing happens without the file.
    public func importLegacyFile(_ path: String) {
        let stored: [ViewerKey]
        do throws(ViewerKeyError) {
            stored = try Self.load(path)
        } catch {
            logger.error("viewer keys of an earlier version could not be read", metadata: ["error": "\(error)"])
            return
        }
        guard !stored.isEmpty || (try? readWholeFile(path)) != nil else { return }
        let missing = stored.filter { key in changes.withLock { $0[key.id] == nil } }
        let pending = Mutex((left: missing.count, failed: false))
        let finish: @Sendable () -> Void = { [logger] in
            guard rename(path, path + ".imported") == 0 else {
                logger.error("could not rename the imported viewer keys file", metadata: ["path": "\(path)"])
                return
            }
            logger.notice("viewer keys imported into the change log", metadata: ["keys": "\(missing.count)"])
        }
        if missing.isEmpty { return finish() }
        for key in missing {
            changeLog.changeViewerKey(.create(key)) { [weak self, logger] result in
                if case .success(let change) = result { self?.apply(change) }
                let done = pending.withLock { state -> Bool in
                    state.left -= 1
                    if case .failure = result { state.failed = true }
                    return state.left == 0 && !state.failed
                }
                if case .failure(let error) = result {
                    logger.error("a viewer key could not be imported", metadata: ["key": "\(key.id)", "error": "\(error)"])
                }
                if done { finish() }
            }
        }
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
