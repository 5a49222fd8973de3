import Foundation
import Testing

@testable import RollboardServer

@Suite("ViewerKeys")
struct ViewerKeysTests {
    let folder = TemporaryDirectory()

    @Test("a created key matches its secret, and the file holds only its digest, with mode 0600")
    func storedHashed() throws {
        defer { folder.remove() }
        let path = folder.path + "/data/viewer-keys.json"
        let keys = try ViewerKeys(path: path)
        let (key, secret) = try keys.create(name: "lobby TV", dashboards: ["ops"], now: 1_700_000_000)
        #expect(secret.hasPrefix("rbv_") && secret.count == 68)
        #expect(key.id.hasPrefix("k") && key.id.count == 13)
        #expect(keys.match(secret) == key)
        #expect(keys.match(secret + "x") == nil)
        #expect(keys.match(String(secret.dropLast())) == nil)
        let text = String(decoding: try folder.read("data/viewer-keys.json"), as: UTF8.self)
        #expect(!text.contains(secret))
        #expect(!text.contains(String(secret.dropFirst(4))))
        #expect(text.contains(SHA256.hex(secret)))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("keys survive a restart, and a revoked key stays revoked")
    func durable() throws {
        defer { folder.remove() }
        let path = folder.path + "/viewer-keys.json"
        let keys = try ViewerKeys(path: path)
        let kept = try keys.create(name: "kept", dashboards: nil, now: 1)
        let revoked = try keys.create(name: "revoked", dashboards: ["demo", "ops"], now: 2)
        #expect(try keys.revoke(revoked.key.id)?.closedScreens == 0)
        #expect(try keys.revoke(revoked.key.id) == nil)

        let reloaded = try ViewerKeys(path: path)
        #expect(reloaded.all == [kept.key])
        #expect(reloaded.match(kept.secret)?.id == kept.key.id)
        #expect(reloaded.match(revoked.secret) == nil)
        #expect(reloaded.all[0].grants("anything"))
    }

    @Test("a key grants the dashboards it was made for, or every one without a list")
    func grants() throws {
        let keys = try ViewerKeys(path: nil)
        let some = try keys.create(name: "some", dashboards: ["demo"], now: 0).key
        let every = try keys.create(name: "every", dashboards: nil, now: 0).key
        #expect(some.grants("demo"))
        #expect(!some.grants("ops"))
        #expect(every.grants("ops"))
    }

    @Test("a damaged file is refused with its path rather than read as no keys")
    func damagedFile() throws {
        defer { folder.remove() }
        let path = folder.path + "/viewer-keys.json"
        for damaged in ["{", #"{"keys":[{"id":"k1"}]}"#, #"{"other":[]}"#] {
            try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try ViewerKeys(path: path)
            } throws: { error in
                (error as? ViewerKeyError)?.description.hasPrefix(path) == true
            }
        }
    }

    @Test("a key that cannot be stored is not created")
    func unwritableFolder() throws {
        // /proc takes no new files, not even from root.
        let keys = try ViewerKeys(path: "/proc/viewer-keys.json")
        #expect(throws: ViewerKeyError.self) { _ = try keys.create(name: "n", dashboards: nil, now: 0) }
        #expect(keys.all.isEmpty)
    }
}
