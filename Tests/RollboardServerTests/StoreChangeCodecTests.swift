import RollboardAnimation
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

/// The one codec of a change, held to the byte format docs/store.md writes down: the expected bytes below were worked
/// out from that description, not from the code.
@Suite("Store change codec")
struct StoreChangeCodecTests {
    static let digest = String(repeating: "a", count: 64)

    static let cases: [(name: String, change: StoreChange, hex: String)] = [
        ("a metric batch", .metrics([
            StoredMetric(id: "rev", value: 12.5, seq: 7, updatedAt: 1000.25),
            StoredMetric(id: "ord", value: -3, seq: 8, updatedAt: 1000.25, interval: 2, animated: false),
        ]), "010200000007000000000000000300000072657600000000000029400000000000428f40000000000000f87f01080000000000000003"
            + "0000006f726400000000000008c00000000000428f40000000000000004000"),
        ("a wheel's progress", .wheel(StoredWheel(id: "status", target: .progress(0.5), seq: 9, updatedAt: 1000.5)),
            "0209000000000000000600000073746174757300000000000000e03f0000000000448f40"),
        ("a wheel's index", .wheel(StoredWheel(id: "status", target: .index(3), seq: 9, updatedAt: 1000.5)),
            "020900000000000000060000007374617475730103000000000000000000000000448f40"),
        ("a text", .text(StoredText(id: "note", text: "hi", seq: 10, updatedAt: 1001)),
            "030a00000000000000040000006e6f7465020000006869000000000000000000488f40"),
        ("slides", .slides(StoredSlides(
            id: "news", slides: [.text("a", color: "#fff"), .image("/i.png", alt: nil, color: nil)], seq: 11,
            updatedAt: 1002)),
            "040b00000000000000040000006e65777302000000000100000061040000002366666601060000002f692e706e6700000000000000"
            + "000000000000508f40"),
        ("a carousel's goto", .carousel(StoredCarouselCommand(id: "news", action: .goto(page: 3), seq: 12, updatedAt: 1003)),
            "050c00000000000000040000006e6577730203000000000000000000000000588f40"),
        ("a carousel's next", .carousel(StoredCarouselCommand(id: "news", action: .next, seq: 12, updatedAt: 1003)),
            "050c00000000000000040000006e657773000000000000588f40"),
        ("a carousel's previous", .carousel(StoredCarouselCommand(id: "news", action: .previous, seq: 12, updatedAt: 1003)),
            "050c00000000000000040000006e657773010000000000588f40"),
        ("a playlist's show", .playlist(StoredPlaylistCommand(id: "tv", action: .show(entry: 1), seq: 13, updatedAt: 1004)),
            "060d000000000000000200000074760201000000000000000000000000608f40"),
        ("a playlist's hold", .playlist(StoredPlaylistCommand(id: "tv", action: .hold, seq: 13, updatedAt: 1004)),
            "060d00000000000000020000007476000000000000608f40"),
        ("a playlist's resume", .playlist(StoredPlaylistCommand(id: "tv", action: .resume, seq: 13, updatedAt: 1004)),
            "060d00000000000000020000007476010000000000608f40"),
        ("an announcement on a dashboard", .screens(StoredScreenCommand(
            action: .announce(dashboard: "ops", text: "hello", seconds: 5), seq: 14, updatedAt: 1005)),
            "070e0000000000000000030000006f70730500000068656c6c6f00000000000014400000000000688f40"),
        ("an announcement everywhere", .screens(StoredScreenCommand(
            action: .announceEverywhere(text: "hello", seconds: 5), seq: 14, updatedAt: 1005)),
            "070e0000000000000003000000000500000068656c6c6f00000000000014400000000000688f40"),
        ("a playlist's reload", .screens(StoredScreenCommand(action: .reloadPlaylist("tv"), seq: 14, updatedAt: 1005)),
            "070e00000000000000020200000074760000000000688f40"),
        ("a screen's assignment", .screens(StoredScreenCommand(action: .assign(screen: "tv", page: "/d/x"), seq: 14, updatedAt: 1005)),
            "0f0e0000000000000005020000007476040000002f642f780000000000688f40"),
        ("a named screen's reload", .screens(StoredScreenCommand(action: .reloadScreen("tv"), seq: 14, updatedAt: 1005)),
            "100e00000000000000060200000074760000000000688f40"),
        ("a named screen's identify", .screens(StoredScreenCommand(action: .identify(screen: "tv", seconds: 5), seq: 14, updatedAt: 1005)),
            "100e000000000000000702000000747600000000000014400000000000688f40"),
        ("a viewer key for one dashboard", .viewerKey(StoredViewerKey(
            action: .create(ViewerKey(id: "k1", name: "lobby", dashboards: ["ops"], createdAt: 999, digest: digest)),
            seq: 15, updatedAt: 1006)),
            "080f0000000000000000020000006b31050000006c6f62627901000000030000006f70730000000000388f4040000000"
            + String(repeating: "61", count: 64) + "0000000000708f40"),
        ("a viewer key for every dashboard", .viewerKey(StoredViewerKey(
            action: .create(ViewerKey(id: "k1", name: "lobby", dashboards: nil, createdAt: 999, digest: digest)),
            seq: 15, updatedAt: 1006)),
            "080f0000000000000000020000006b31050000006c6f626279ffffffff0000000000388f4040000000"
            + String(repeating: "61", count: 64) + "0000000000708f40"),
        ("a revoked viewer key", .viewerKey(StoredViewerKey(action: .revoke(id: "k1"), seq: 16, updatedAt: 1007)),
            "08100000000000000001020000006b310000000000788f40"),
        ("a leaderboard's board", .leaderboard(StoredLeaderboard(
            id: "lb", entries: [.init(name: "Al", value: 12), .init(name: "Bob", value: 9)], seq: 17, updatedAt: 1008)),
            "0b110000000000000002000000" + "6c62" + "02000000" + "02000000416c0000000000002840"
            + "03000000426f620000000000002240" + "0000000000808f40"),
        ("a board with its request's Idempotency-Key", .leaderboard(StoredLeaderboard(
            id: "lb", entries: [.init(name: "Al", value: 12), .init(name: "Bob", value: 9)], seq: 17, updatedAt: 1008,
            requestKey: "k1", request: "lb replace 2:Al=12.0 3:Bob=9.0")),
            "0e110000000000000002000000" + "6c62" + "02000000" + "02000000416c0000000000002840"
            + "03000000426f620000000000002240" + "0000000000808f40" + "020000006b31" + "1e000000" + "6c62207265706c61636520323a416c3d31322e3020333a426f623d392e30"),
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }

    @Test("every kind of change is written as docs/store.md describes, and reads back as itself", arguments: cases)
    func payloadIsTheDocumentedBytes(name: String, change: StoreChange, hex: String) throws {
        #expect(Self.hex(change.payload) == hex, "\(name)")
        #expect(StoreChange(payload: change.payload[...]) == change, "\(name)")
    }

    @Test("a payload cut short, with bytes left over or of an unknown kind is not a change", arguments: cases)
    func malformedPayloadsAreRefused(name: String, change: StoreChange, hex: String) {
        let payload = change.payload
        #expect(StoreChange(payload: payload.dropLast()) == nil, "\(name)")
        #expect(StoreChange(payload: (payload + [0])[...]) == nil, "\(name)")
        #expect(StoreChange(payload: ([9] + payload.dropFirst())[...]) == nil, "\(name)")
    }

    @Test(
        "a carousel's or playlist's action byte past the indexed one, or a plain one followed by an index, is not a change",
        arguments: [
            "050c00000000000000040000006e657773030000000000588f40",
            "060d00000000000000020000007476030000000000608f40",
            "050c00000000000000040000006e657773000300000000000000000000000000588f40",
        ])
    func unknownActionsAreRefused(hex: String) {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset in
            UInt8(hex.dropFirst(offset).prefix(2), radix: 16)!
        }
        #expect(StoreChange(payload: bytes[...]) == nil)
    }

    @Test("a batch takes a number per metric; restamping and stamping change every part and nothing else")
    func sequenceNumbersAndTimesCoverEveryPart() throws {
        let batch = Self.cases[0].change
        #expect(batch.lastSeq == 8)
        #expect(batch.sequenceCount == 2)
        #expect(batch.updatedAt == 1000.25)
        guard case .metrics(let moved) = batch.restamped(adding: 100).stamped(at: 5) else {
            Issue.record("a batch stays a batch")
            return
        }
        #expect(moved.map(\.seq) == [107, 108])
        #expect(moved.map(\.updatedAt) == [5, 5])
        #expect(moved.map(\.id) == ["rev", "ord"])
        let key = try #require(Self.cases.first { $0.name == "a revoked viewer key" }).change
        #expect(key.sequenceCount == 1)
        #expect(key.restamped(adding: 1).lastSeq == 17)
        #expect(key.stamped(at: 3).updatedAt == 3)
        #expect(StoreChange.metrics([]).lastSeq == 0)
        #expect(StoreChange.metrics([]).sequenceCount == 0)
    }
}
