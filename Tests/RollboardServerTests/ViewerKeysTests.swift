import Dispatch
import Foundation
import Logging
import RollboardTestSupport
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

private let logger = Logger(label: "test.keys")

extension ViewerKeys {
    /// `create`, waited for (tests only).
    func createWaiting(name: String, dashboards: [String]?, now: Double = 0) throws -> (key: ViewerKey, secret: String) {
        let outcome = Synchronized<Result<(key: ViewerKey, secret: String), ViewerKeyError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        create(name: name, dashboards: dashboards, now: now) { result in
            outcome.update { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.update { $0! }.get()
    }

    /// `revoke`, waited for (tests only).
    func revokeWaiting(_ id: String) throws -> (key: ViewerKey, closedScreens: Int)? {
        let outcome = Synchronized<Result<(key: ViewerKey, closedScreens: Int)?, ViewerKeyError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        revoke(id) { result in
            outcome.update { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.update { $0! }.get()
    }
}

@Suite("ViewerKeys")
struct ViewerKeysTests {
    let folder = TemporaryDirectory()

    private func store(compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes) throws -> MetricStore {
        try MetricStore(directory: folder.path + "/store", compactionThreshold: compactionThreshold, logger: logger)
    }

    @Test("a created key matches its secret, and the change log holds only its digest")
    func storedHashed() throws {
        defer { folder.remove() }
        let log = try store()
        let keys = ViewerKeys(changeLog: log, logger: logger)
        let (key, secret) = try keys.createWaiting(name: "lobby TV", dashboards: ["ops"], now: 1_700_000_000)
        log.close()
        #expect(secret.hasPrefix("rbv_") && secret.count == 68)
        #expect(key.id.hasPrefix("k") && key.id.count == 13)
        #expect(keys.match(secret) == key)
        #expect(keys.match(secret + "x") == nil)
        #expect(keys.match(String(secret.dropLast())) == nil)
        var journal: [UInt8] = []
        for name in folder.files("store") { journal += try folder.read("store/" + name) }
        let text = String(decoding: journal, as: UTF8.self)
        #expect(!text.contains(String(secret.dropFirst(4))))
        #expect(text.contains(SHA256.hex(secret)))
    }

    @Test("keys survive a restart and a compaction, and a revoked key stays revoked", arguments: [ServerSettings.Defaults.journalCompactionBytes, 1])
    func durable(compactionThreshold: Int) throws {
        defer { folder.remove() }
        let log = try store(compactionThreshold: compactionThreshold)
        let keys = ViewerKeys(changeLog: log, logger: logger)
        let kept = try keys.createWaiting(name: "kept", dashboards: nil, now: 1)
        let revoked = try keys.createWaiting(name: "revoked", dashboards: ["demo", "ops"], now: 2)
        #expect(try keys.revokeWaiting(revoked.key.id)?.closedScreens == 0)
        #expect(try keys.revokeWaiting(revoked.key.id) == nil)
        #expect(keys.all == [kept.key])
        log.close()

        let reopened = try store(compactionThreshold: compactionThreshold)
        defer { reopened.close() }
        let reloaded = ViewerKeys(changeLog: reopened, logger: logger)
        #expect(reloaded.all == [kept.key])
        #expect(reloaded.match(kept.secret)?.id == kept.key.id)
        #expect(reloaded.match(revoked.secret) == nil)
        #expect(reloaded.all[0].grants("anything"))
    }

    @Test("a key grants the dashboards it was made for, or every one without a list")
    func grants() throws {
        defer { folder.remove() }
        let log = try store()
        defer { log.close() }
        let keys = ViewerKeys(changeLog: log, logger: logger)
        let some = try keys.createWaiting(name: "some", dashboards: ["demo"]).key
        let every = try keys.createWaiting(name: "every", dashboards: nil).key
        #expect(some.grants("demo"))
        #expect(!some.grants("ops"))
        #expect(every.grants("ops"))
    }

    @Test("a revocation committed through the log by someone else is applied and observed")
    func revocationFromTheLog() async throws {
        defer { folder.remove() }
        let log = try store()
        defer { log.close() }
        let keys = ViewerKeys(changeLog: log, logger: logger)
        let observed = Synchronized<[String]>([])
        keys.onRevocation { id in
            observed.update { $0.append(id) }
            return 0
        }
        let created = try keys.createWaiting(name: "wall", dashboards: nil)
        let other = ViewerKeys(changeLog: log, logger: logger)
        #expect(other.match(created.secret)?.id == created.key.id)
        _ = try other.revokeWaiting(created.key.id)
        #expect(observed.update { $0 } == [created.key.id])
        #expect(keys.match(created.secret) == nil)
        #expect(keys.all.isEmpty)
    }

    @Test("a key the change log refuses is not created")
    func refused() throws {
        defer { folder.remove() }
        let log = try store()
        let keys = ViewerKeys(changeLog: log, logger: logger)
        log.close()
        #expect(throws: ViewerKeyError.self) { _ = try keys.createWaiting(name: "n", dashboards: nil) }
        #expect(keys.all.isEmpty)
    }

    @Test("an earlier version's viewer-keys.json is imported once and renamed")
    func legacyImport() async throws {
        defer { folder.remove() }
        let secret = "rbv_" + String(repeating: "ab", count: 32)
        let file =
            #"{"keys":[{"id":"k0123456789ab","name":"old TV","dashboards":["demo"],"createdAt":5,"sha256":""#
            + SHA256.hex(secret) + #""}]}"#
        try folder.write("viewer-keys.json", Array(file.utf8))
        let log = try store()
        // The import says in the log when it has renamed the file: that message is the event to wait for.
        let recording = Logger.recording("test.keys")
        let keys = ViewerKeys(changeLog: log, logger: recording.logger)
        keys.importLegacyFile(folder.path + "/viewer-keys.json")
        #expect(await recording.changes.wait {
            FileManager.default.fileExists(atPath: folder.path + "/viewer-keys.json.imported")
        })
        #expect(keys.match(secret)?.id == "k0123456789ab")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/viewer-keys.json"))
        log.close()
        let reopened = try store()
        defer { reopened.close() }
        #expect(ViewerKeys(changeLog: reopened, logger: logger).match(secret)?.grants("demo") == true)
    }
}
