import Foundation
import RollboardNet
import RollboardTestSupport
import Testing

/// The whole product over the wire: the real server with TLS on a free port, the shipped demo dashboard, the
/// producer API over HTTPS and screens over WebSockets. Animations are posted with short intervals; waits are
/// bounded by deadlines, never fixed sleeps.
@Suite("End to end")
struct EndToEndTests {
    // MARK: Hello and frames

    @Test("a screen's first message is hello with protocol 2, the demo layout and every tile's state")
    func helloDescribesTheDashboard() throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            let hello = try screen.next()
            #expect(hello["type"] as? String == "hello")
            #expect(hello["protocol"] as? Int == 2)
            #expect(hello["fps"] as? Int == 30)
            let dashboard = try #require(hello["dashboard"] as? [String: Any])
            #expect(dashboard["id"] as? String == "demo")
            #expect(dashboard["title"] as? String == "Rollboard demo — today at a glance")
            let layout = try #require(dashboard["tiles"] as? [[String: Any]])
            #expect(layout.map { $0["id"] as? String ?? "?" } == Self.demoTiles.map(\.id))
            #expect(layout.map { $0["type"] as? String ?? "?" } == Self.demoTiles.map(\.type))
            let byID = Dictionary(uniqueKeysWithValues: layout.map { ($0["id"] as? String ?? "?", $0) })
            #expect(byID["revenue"]?["maxColumns"] as? Int == 10)
            #expect(byID["revenue"]?["decimals"] as? Int == 2)
            #expect(byID["visitors"]?["columns"] as? Int == 5)
            #expect(byID["orders"]?["format"] as? String == "%d")
            #expect(byID["conversion"]?["format"] as? String == "%.2f")
            #expect(byID["temperature"]?["columns"] as? Int == 3)
            #expect(byID["temperature"]?["decimals"] as? Int == 1)
            #expect((byID["status"]?["contents"] as? [String])?.count == 5)
            #expect((byID["news"]?["slides"] as? [Any])?.count == 4)

            let states = try #require(hello["tiles"] as? [String: Any])
            #expect(Set(states.keys) == Set(Self.demoTiles.map(\.id)))
            for metric in ["revenue", "visitors", "temperature", "orders", "conversion"] {
                #expect(states[metric] is NSNull, "\(metric) has no value yet, so its state is null (shown as —)")
            }
            #expect(states["status"] is NSNull, "the status wheel was never set, so its state is null (shown as —)")
            let news = try #require(states["news"] as? [String: Any])
            let position = try #require(news["position"] as? Double)
            #expect(position >= 0 && position < 4)
            #expect((news["page"] as? Int).map { (0..<4).contains($0) } == true)
        }
    }

    @Test("a posted value is acknowledged, then frames roll only that tile, column by column, to rest on its digits")
    func postedValueRollsToRest() throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            let response = try live.post("/api/v1/metrics/revenue", #"{"value": 1234.56, "interval": 0.3}"#)
            #expect(response.status.code == 202)
            let acknowledged = try jsonObject(response.body)
            #expect(Set(acknowledged.keys) == ["id", "value", "seq"])
            #expect(acknowledged["id"] as? String == "revenue")
            #expect(acknowledged["value"] as? Double == 1234.56)
            #expect((acknowledged["seq"] as? Int ?? 0) >= 1)

            let frames = try screen.frames { revenue(in: $0)?.rests(on: [1, 2, 3, 4, 5, 6]) == true }
            let states = frames.compactMap { revenue(in: $0) }
            #expect(states.count >= 3, "a 0.3 s roll at 30 fps takes several frames, got \(states.count)")
            for frame in frames {
                let changed = Set((frame["tiles"] as? [String: Any] ?? [:]).keys)
                #expect(changed.isSubset(of: ["revenue", "news"]), "frame \(frame["seq"] ?? "?") holds \(changed)")
                #expect(!changed.isEmpty)
            }
            for state in states {
                #expect(state.digits.allSatisfy { $0 >= 0 && $0 < 10 }, "positions out of [0, 10): \(state.digits)")
                #expect(state.target == 1234.56)
                #expect(!state.negative)
            }
            let widths = states.map(\.digits.count)
            #expect(widths == widths.sorted(), "columns never shrink: \(widths)")
            #expect(widths.last == 6)
            #expect(states.dropLast().contains { !$0.isAtRest }, "the digits rolled rather than jumped")
        }
    }

    @Test("a calm screen (motion=reduced) gets the posted value as one jump, with no frames in between")
    func calmScreenJumps() throws {
        try withLiveServer { live in
            let calm = try Screen(live.webSocket("/ws?dashboard=demo&motion=reduced"))
            let moving = try Screen(live.webSocket())
            #expect(try calm.hello()["motion"] as? String == "reduced")
            #expect(try moving.hello()["motion"] == nil)
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 1234.56, "interval": 0.5}"#).status.code == 202)
            let rolled = try moving.frames { revenue(in: $0)?.rests(on: [1, 2, 3, 4, 5, 6]) == true }
            #expect(rolled.compactMap { revenue(in: $0) }.count > 3, "the full-motion screen rolls")
            let jumped = try calm.frames { revenue(in: $0) != nil }
            #expect(revenue(in: jumped.last!)?.rests(on: [1, 2, 3, 4, 5, 6]) == true, "the first calm frame is final")
            for frame in jumped {
                for (id, state) in frame["tiles"] as? [String: Any] ?? [:] where id == "news" {
                    let position = (state as? [String: Any])?["position"] as? Double ?? -1
                    #expect(position == position.rounded(), "a calm carousel rests on a page, got \(position)")
                }
            }
            let refused = try live.rawRequest(
                "GET /ws?dashboard=demo&motion=slow HTTP/1.1",
                headers: [
                    ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                ])
            #expect(refused.status == 400)
        }
    }

    @Test("a screen that comes back after a gap is shown the values it missed in order; without a gap, nothing again")
    func comebackWithAndWithoutGap() throws {
        try withLiveServer { live in
            func storeSeq(_ response: HTTPResponse) throws -> Int {
                try #require(try jsonObject(response.body)["seq"] as? Int)
            }
            let away = try Screen(live.webSocket())
            let hello = try away.hello()
            let epoch = try #require((hello["changes"] as? [String: Any])?["epoch"] as? String)
            let seen = try storeSeq(try live.post("/api/v1/metrics/revenue", #"{"value": 100, "interval": 0.3}"#))
            _ = try away.frames { revenue(in: $0)?.rests(on: [1, 0, 0, 0, 0]) == true }
            away.socket.disconnect()
            _ = try live.post("/api/v1/metrics/revenue", #"{"value": 200, "interval": 0.3}"#)
            let last = try storeSeq(try live.post("/api/v1/metrics/revenue", #"{"value": 300, "interval": 0.3}"#))
            let watcher = try Screen(live.webSocket())
            _ = try watcher.hello()
            _ = try watcher.frames { revenue(in: $0)?.rests(on: [3, 0, 0, 0, 0]) == true }

            let back = try Screen(live.webSocket("/ws?dashboard=demo&since=\(epoch):\(seen)"))
            let again = try back.hello()
            #expect(again["resume"] as? String == "replay")
            #expect(revenue(in: again)?.rests(on: [1, 0, 0, 0, 0]) == true, "it comes back where it stood")
            let replayed = try back.frames { revenue(in: $0)?.rests(on: [3, 0, 0, 0, 0]) == true }
            let targets = replayed.compactMap { revenue(in: $0)?.target }
            #expect(targets.first == 200 && targets.last == 300 && targets.contains(200), "200 then 300: \(Set(targets))")
            #expect(replayed.count > 5, "the digits rolled rather than jumped: \(replayed.count) frames")

            let current = try Screen(live.webSocket("/ws?dashboard=demo&since=\(epoch):\(last)"))
            let noGap = try current.hello()
            #expect(noGap["resume"] as? String == "none")
            #expect(revenue(in: noGap)?.rests(on: [3, 0, 0, 0, 0]) == true)
            let otherEpoch = try Screen(live.webSocket("/ws?dashboard=demo&since=other:\(last)"))
            #expect(try otherEpoch.hello()["resume"] as? String == "full")
        }
    }

    /// The article's own timeline takes 18.9 s for 0 → 86,420.00 and 10.8 s for one cent; the demo's revenue tile
    /// has the default maxDuration of 3 s, so at 30 fps the roll fits in 3 × 30 frames (plus the resting one).
    @Test(
        "a big change and a one-cent change both come to rest within the tile's maxDuration",
        arguments: [(0.0, 86_420.0, [8, 6, 4, 2, 0, 0, 0]), (1_999.99, 2_000.0, [2, 0, 0, 0, 0, 0])])
    func boundedRoll(from: Double, to: Double, digits: [Int]) throws {
        try withLiveServer { live in
            if from != 0 {
                #expect(try live.post("/api/v1/metrics/revenue", #"{"value": \#(from), "animated": false}"#).status.code == 202)
            }
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": \#(to)}"#).status.code == 202)
            let frames = try screen.frames(within: 6) { revenue(in: $0)?.rests(on: digits) == true }
            let rolling = frames.compactMap { revenue(in: $0) }
            #expect(rolling.count <= 3 * 30 + 1, "\(rolling.count) frames at 30 fps is more than 3 s")
            #expect(rolling.count >= 10, "it rolled over several frames, not jumped: \(rolling.count)")
        }
    }

    @Test(
        "values posted while an animation runs become the target in turn and come to rest on the last",
        arguments: QueuedPosting.allCases)
    func queuedValuesPlayInOrder(_ posting: QueuedPosting) throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 100, "interval": 0.6}"#).status.code == 202)
            var frames = try screen.frames { revenue(in: $0) != nil }
            switch posting {
            case .oneByOne:
                #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 250, "interval": 0.3}"#).status.code == 202)
                #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 75.5, "interval": 0.3}"#).status.code == 202)
            case .batch:
                let batch = #"{"updates":[{"id":"revenue","value":250,"interval":0.3},"#
                    + #"{"id":"revenue","value":75.5,"interval":0.3}]}"#
                #expect(try live.post("/api/v1/metrics", batch).status.code == 202)
            }
            frames += try screen.frames(within: 6) { revenue(in: $0)?.rests(on: [0, 7, 5, 5, 0]) == true }
            var targets: [Double] = []
            for state in frames.compactMap(revenue(in:)) where targets.last != state.target {
                targets.append(state.target)
            }
            #expect(targets == [100, 250, 75.5])
        }
    }

    @Test("a value posted with animated false shows its final digits in the very next frame")
    func unanimatedValueJumps() throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 777.77, "animated": false}"#).status.code == 202)
            let frames = try screen.frames { revenue(in: $0) != nil }
            #expect(revenue(in: frames[frames.count - 1]) == ScreenOdometer(digits: [7, 7, 7, 7, 7], target: 777.77))
        }
    }

    @Test("a screen that connects mid-animation joins the roll and comes to rest on the same digits")
    func lateScreenRestsOnTheSameDigits() throws {
        try withLiveServer { live in
            let first = try Screen(live.webSocket())
            _ = try first.hello()
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 4321.5, "interval": 1}"#).status.code == 202)
            _ = try first.frames { revenue(in: $0) != nil }
            let second = try Screen(live.webSocket())
            let hello = try second.hello()
            let joined = try #require(ScreenOdometer((hello["tiles"] as? [String: Any])?["revenue"]))
            let expected: [Int] = [4, 3, 2, 1, 5, 0]
            #expect(!joined.rests(on: expected), "the hello shows the roll in progress: \(joined)")
            #expect(joined.target == 4321.5)
            let firstFrames = try first.frames { revenue(in: $0)?.rests(on: expected) == true }
            let secondFrames = try second.frames { revenue(in: $0)?.rests(on: expected) == true }
            #expect(revenue(in: firstFrames[firstFrames.count - 1]) == revenue(in: secondFrames[secondFrames.count - 1]))
        }
    }

    @Test("a screen at 10 fps gets fewer frames for the same change than one at the default 30 fps")
    func lowerFrameRateSendsFewerFrames() throws {
        try withLiveServer { live in
            let slow = try Screen(live.webSocket("/ws?dashboard=demo&fps=10"))
            let fast = try Screen(live.webSocket())
            #expect(try slow.hello()["fps"] as? Int == 10)
            #expect(try fast.hello()["fps"] as? Int == 30)
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 86420, "interval": 0.6}"#).status.code == 202)
            let expected: [Int] = [8, 6, 4, 2, 0, 0, 0]
            let slowFrames = try slow.frames { revenue(in: $0)?.rests(on: expected) == true }
            let fastFrames = try fast.frames { revenue(in: $0)?.rests(on: expected) == true }
            let slowCount = slowFrames.filter { revenue(in: $0) != nil }.count
            let fastCount = fastFrames.filter { revenue(in: $0) != nil }.count
            #expect(slowCount < fastCount, "10 fps: \(slowCount) frames, 30 fps: \(fastCount) frames")
        }
    }

    // MARK: Client messages

    @Test("a paused screen gets no frames while another does, and on resume one frame with the latest state")
    func pauseAndResume() throws {
        try withLiveServer { live in
            let paused = try Screen(live.webSocket())
            let watching = try Screen(live.webSocket())
            _ = try paused.hello()
            _ = try watching.hello()
            try paused.socket.send(text: #"{"type":"pause"}"#)
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 55.55, "interval": 0.3}"#).status.code == 202)
            let watched = try watching.frames { revenue(in: $0)?.rests(on: [5, 5, 5, 5]) == true }
            #expect(watched.compactMap { revenue(in: $0) }.count >= 2, "the other screen saw the roll")

            try paused.socket.send(text: #"{"type":"resume"}"#)
            let resumed = try paused.frames { revenue(in: $0) != nil }
            #expect(
                revenue(in: resumed[resumed.count - 1]) == ScreenOdometer(digits: [5, 5, 5, 5], target: 55.55),
                "the first revenue frame after resume already shows the latest state")
        }
    }

    @Test("a bad message from a screen closes it with the fitting code", arguments: BadClientMessage.all)
    func badClientMessageCloses(_ message: BadClientMessage) throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            switch message.payload {
            case .text(let text): try screen.socket.send(text: text)
            case .binary(let bytes): try screen.socket.sendFrame(opcode: 0x2, payload: bytes)
            case .repeated(let text, let times): for _ in 0..<times { try screen.socket.send(text: text) }
            }
            #expect(try screen.closeCode() == message.closeCode)
        }
    }

    @Test("a screen asking for an unknown dashboard is closed with 4404", arguments: ["/ws?dashboard=nope", "/ws"])
    func unknownDashboardCloses(_ target: String) throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket(target))
            #expect(try screen.closeCode() == 4404)
        }
    }

    @Test("a screen asking for a protocol the server does not speak is closed with 4406; asking for 2 is fine")
    func unsupportedProtocolCloses() throws {
        try withLiveServer { live in
            let old = try Screen(live.webSocket("/ws?dashboard=demo&protocol=1"))
            #expect(try old.closeCode() == 4406)
            let current = try Screen(live.webSocket("/ws?dashboard=demo&protocol=2"))
            #expect(try current.hello()["protocol"] as? Int == 2)
        }
    }

    @Test("screens at the same rate receive byte-identical frames, numbered by their stream")
    func screensShareFrames() throws {
        try withLiveServer { live in
            let screens = try (0..<3).map { _ in try Screen(live.webSocket()) }
            for screen in screens { _ = try screen.raw() }
            let response = try live.request(
                "POST", "/api/v1/metrics/revenue", body: Array(#"{"value":4321.5}"#.utf8), token: LiveServer.token,
                contentType: "application/json")
            #expect(response.status == .accepted)
            var framesByNumber: [[Int: String]] = []
            for screen in screens {
                var mine: [Int: String] = [:]
                while mine.count < 8 {
                    guard case .text(let text) = try screen.socket.receive() else { continue }
                    guard let number = try jsonObject(Array(text.utf8))["f"] as? Int else { continue }
                    mine[number] = text
                }
                framesByNumber.append(mine)
            }
            let common = framesByNumber.map { Set($0.keys) }.reduce(Set(framesByNumber[0].keys)) { $0.intersection($1) }
            #expect(common.count >= 5, "frame numbers: \(framesByNumber.map { $0.keys.sorted() })")
            for number in common {
                #expect(Set(framesByNumber.map { $0[number] }).count == 1, "frame \(number) is not the same bytes on every screen")
            }
        }
    }

    @Test("an upgrade request gets the status its headers deserve", arguments: UpgradeAttempt.all)
    func upgradeIsCheckedBeforeOpening(_ attempt: UpgradeAttempt) throws {
        try withLiveServer { live in
            let headers = attempt.headers.map { ($0.0, $0.1.replacingOccurrences(of: "{port}", with: "\(live.port)")) }
            let response = try live.rawRequest("GET \(attempt.target) HTTP/1.1", headers: headers)
            #expect(response.status == attempt.status)
            if let error = attempt.error {
                #expect(try jsonObject(response.body)["error"] as? String == error)
            }
            if attempt.offersVersion13 {
                #expect(response.headers["Sec-WebSocket-Version"] == "13")
            }
        }
    }

    @Test("a broken WebSocket frame from a screen closes it with the right code", arguments: BrokenFrame.all)
    func brokenFrameCloses(_ frame: BrokenFrame) throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket())
            _ = try screen.hello()
            try screen.socket.sendFrame(
                opcode: frame.opcode, payload: frame.payload.bytes, fin: frame.fin, rsv: frame.rsv, masked: frame.masked)
            #expect(try screen.closeCode() == frame.closeCode)
        }
    }

    // MARK: Producer API and pages

    @Test("every bad producer request gets its precise status and a JSON error", arguments: BadProducerRequest.all)
    func badProducerRequestIsRefused(_ bad: BadProducerRequest) throws {
        try withLiveServer { live in
            let body = bad.oversizedBody.map { [UInt8](repeating: UInt8(ascii: " "), count: $0) } ?? Array(bad.body.utf8)
            let token: String? =
                switch bad.token {
                case .valid: LiveServer.token
                case .wrong: "not-the-token"
                case .none: nil
                }
            let response = try live.request(
                bad.method, bad.target, body: body, token: token, contentType: bad.contentType)
            #expect(response.status.code == bad.status)
            #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
            let error = try jsonObject(response.body)
            #expect(error["error"] as? String == bad.error)
            #expect((error["detail"] as? String)?.isEmpty == false)
            if let (name, fragment) = bad.header {
                #expect(response.headers[name]?.contains(fragment) == true, "\(name): \(response.headers[name] ?? "none")")
            }
        }
    }

    @Test("a batch with one bad item is refused whole and leaves every value as it was")
    func badBatchStoresNothing() throws {
        try withLiveServer { live in
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 500}"#).status.code == 202)
            let batch = #"{"updates":[{"id":"revenue","value":600},{"id":"orders","value":7},{"id":"visitors","value":123456}]}"#
            let refused = try live.post("/api/v1/metrics", batch)
            #expect(refused.status.code == 422)
            let error = try jsonObject(refused.body)
            #expect(error["error"] as? String == "invalid_value")
            #expect((error["detail"] as? String)?.hasPrefix("updates[2].value") == true)
            let revenue = try jsonObject(live.request("GET", "/api/v1/metrics/revenue").body)
            #expect(revenue["value"] as? Double == 500)
            let orders = try jsonObject(live.request("GET", "/api/v1/metrics/orders").body)
            #expect(orders["value"] is NSNull)
        }
    }

    @Test("health, metrics, pages and reads answer", arguments: PageRequest.all)
    func pagesAnswer(_ page: PageRequest) throws {
        try withLiveServer { live in
            #expect(try live.post("/api/v1/metrics/orders", #"{"value": 12}"#).status.code == 202)
            let response = try live.request("GET", page.target, accept: page.accept)
            #expect(response.status.code == page.status)
            #expect(response.headers["Content-Type"]?.hasPrefix(page.contentType) == true)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains(page.contains), "\(page.target) body: \(text.prefix(300))")
        }
    }

    @Test("connections their clients have closed are released at once, not after the close timeout")
    func closedConnectionsAreReleased() throws {
        try withLiveServer { live in
            for _ in 0..<8 {
                let response = try live.request("GET", "/healthz")
                #expect(response.status.code == 200)
            }
            #expect(
                eventuallyBlocking(within: 2) { live.connectionCount == 0 },
                "connections still open 2 s after their clients closed them")
        }
    }

    // MARK: Restart

    @Test("a restarted server on the same data shows the last acknowledged values in a new screen's hello")
    func restartKeepsAcknowledgedValues() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        do {
            let live = try LiveServer(dataDirectory: folder.path)
            defer { live.stop() }
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 1000, "interval": 0.3}"#).status.code == 202)
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 98765.43, "interval": 0.3}"#).status.code == 202)
            #expect(try live.post("/api/v1/metrics/visitors", #"{"value": 4242}"#).status.code == 202)
            #expect(try live.post("/api/v1/wheels/status", #"{"index": 3}"#).status.code == 202)
        }
        let restarted = try LiveServer(dataDirectory: folder.path)
        defer { restarted.stop() }
        let hello = try Screen(restarted.webSocket()).hello()
        let tiles = try #require(hello["tiles"] as? [String: Any])
        #expect(ScreenOdometer(tiles["revenue"]) == ScreenOdometer(digits: [9, 8, 7, 6, 5, 4, 3], target: 98765.43))
        #expect(ScreenOdometer(tiles["visitors"]) == ScreenOdometer(digits: [0, 4, 2, 4, 2], target: 4242))
        #expect((tiles["status"] as? [String: Any])?["position"] as? Double == 3)
        let read = try jsonObject(restarted.request("GET", "/api/v1/metrics/revenue").body)
        #expect(read["value"] as? Double == 98765.43)
    }

    private static let demoTiles: [(id: String, type: String)] = [
        ("revenue", "odometer"), ("visitors", "odometer"), ("orders", "counter"), ("conversion", "counter"),
        ("temperature", "odometer"), ("status", "wheel"), ("news", "carousel"), ("notice", "text"),
    ]
}

// MARK: Screens

/// A dashboard screen: a WebSocket client that keeps every tile's state as protocol 2 patches it, and hands the tests
/// each message in the long form (a `frame` with `seq` and, per changed tile, its whole state with `digits` and
/// `position` as numbers of digits), checking that frame numbers go up.
final class Screen {
    let socket: WebSocketClient
    private var lastSeq = 0
    /// Every tile's wire state as the screen knows it (`NSNull` without a value).
    private var states: [String: Any] = [:]

    init(_ socket: WebSocketClient) {
        self.socket = socket
    }

    /// The next message as sent, which must be JSON text.
    func raw() throws -> [String: Any] {
        switch try socket.receive() {
        case .text(let text): return try jsonObject(Array(text.utf8))
        case .binary(let bytes): throw LiveServerError("expected a text message, got \(bytes.count) binary bytes")
        case .closed(let code, let reason):
            throw LiveServerError("the server closed the screen (\(code.map(String.init) ?? "no code")): \(reason)")
        }
    }

    /// The next message in the long form: a `hello` with whole states, or a `frame` with the whole states of the
    /// tiles it changed (a `state` message becomes a frame with every tile).
    func next() throws -> [String: Any] {
        var message = try raw()
        if let number = message["f"] as? Int {
            let entries = message["t"] as? [String: Any] ?? [:]
            var tiles: [String: Any] = [:]
            for (id, entry) in entries {
                states[id] = Self.patch(states[id], with: entry)
                tiles[id] = Self.longForm(states[id])
            }
            #expect(number > lastSeq, "frame \(number) after \(lastSeq)")
            lastSeq = number
            return ["type": "frame", "seq": number, "tiles": tiles]
        }
        guard let type = message["type"] as? String, type == "hello" || type == "state" else { return message }
        states = (message["tiles"] as? [String: Any] ?? [:]).mapValues { Self.patch(nil, with: $0) }
        message["tiles"] = states.mapValues(Self.longForm)
        let seq = message["seq"] as? Int ?? -1
        // A `hello` starts its stream's numbering (a playlist moves the screen to another dashboard's stream); a
        // `state` continues the screen's.
        if type == "state" { #expect(seq >= lastSeq, "\(type) at \(seq) after \(lastSeq)") }
        lastSeq = seq
        if type == "state" { message["type"] = "frame" }
        return message
    }

    /// The next message, which must be the hello.
    func hello() throws -> [String: Any] {
        let message = try next()
        guard message["type"] as? String == "hello" else { throw LiveServerError("expected hello, got \(message)") }
        return message
    }

    /// Reads frames until one satisfies `isLast` and returns them all, that one last; fails after `seconds`.
    func frames(within seconds: Double = 4, until isLast: ([String: Any]) -> Bool) throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var frames: [[String: Any]] = []
        while ContinuousClock.now < deadline {
            let message = try next()
            guard message["type"] as? String == "frame" else { throw LiveServerError("expected a frame, got \(message)") }
            frames.append(message)
            if isLast(message) { return frames }
        }
        throw LiveServerError("no awaited frame within \(seconds) s; last frames: \(frames.suffix(3))")
    }

    /// A tile's wire state patched by one frame entry (protocol 2): `d` sets the columns (and `v` their velocities),
    /// `m` (or the array shorthand) adds its corrections to the velocities from column `i` on and moves every column
    /// by its velocity; other members replace the state's, `null` removes one.
    static func patch(_ old: Any?, with entry: Any) -> Any {
        if entry is NSNull { return NSNull() }
        if let motion = entry as? [Int] { return patch(old, with: ["m": motion]) }
        guard let members = entry as? [String: Any] else { return old ?? NSNull() }
        var state = old as? [String: Any] ?? [:]
        for (name, value) in members where !["d", "v", "m"].contains(name) {
            state[name] = value is NSNull ? nil : value
        }
        if let columns = members["d"] as? [Int] {
            state["d"] = columns
            state["v"] = members["v"] as? [Int] ?? [Int](repeating: 0, count: columns.count)
        }
        if let motion = members["m"] as? [Int] {
            let columns = state["d"] as? [Int] ?? []
            var velocities = state["v"] as? [Int] ?? [Int](repeating: 0, count: columns.count)
            if let first = motion.first {
                for (offset, correction) in motion.dropFirst().enumerated() { velocities[first + offset] += correction }
            }
            state["d"] = zip(columns, velocities).map { (($0 + $1) % 10_000 + 10_000) % 10_000 }
            state["v"] = velocities
        }
        return state
    }

    /// A wire state with `digits` and `position` in digits, as the page paints them.
    static func longForm(_ state: Any?) -> Any {
        guard var object = state as? [String: Any] else { return NSNull() }
        if let columns = object.removeValue(forKey: "d") as? [Int] {
            object["digits"] = columns.map { Double($0) / 1000 }
        }
        object["v"] = nil
        if let position = object.removeValue(forKey: "p") as? Int { object["position"] = Double(position) / 1000 }
        return object
    }

    /// Reads past any messages to the close and returns its code (`nil` when the connection ends without one).
    func closeCode() throws -> UInt16? {
        try closing().code
    }

    /// Reads until the server closes the screen; its close code and reason.
    func closing() throws -> (code: UInt16?, reason: String) {
        while true {
            if case .closed(let code, let reason) = try socket.receive() {
                socket.disconnect()
                return (code, reason)
            }
        }
    }
}

@available(*, unavailable)
extension Screen: Sendable {}

/// An odometer tile's state as the wire carries it.
struct ScreenOdometer: Equatable, CustomStringConvertible {
    var digits: [Double]
    var negative = false
    var target: Double

    init(digits: [Double], negative: Bool = false, target: Double) {
        self.digits = digits
        self.negative = negative
        self.target = target
    }

    init?(_ state: Any?) {
        guard let object = state as? [String: Any], let digits = object["digits"] as? [Double],
            let negative = object["negative"] as? Bool, let target = object["target"] as? Double
        else { return nil }
        self.init(digits: digits, negative: negative, target: target)
    }

    /// Every column rests on a whole digit.
    var isAtRest: Bool { digits.allSatisfy { $0 == $0.rounded() } }

    /// At rest on exactly these digits.
    func rests(on expected: [Int]) -> Bool { digits == expected.map(Double.init) }

    var description: String { "\(digits) → \(target)" }
}

/// The revenue odometer's state in a frame, when the frame holds it.
func revenue(in frame: [String: Any]) -> ScreenOdometer? {
    ScreenOdometer((frame["tiles"] as? [String: Any])?["revenue"])
}

/// A JSON object from bytes, or an error showing what came instead.
func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        throw LiveServerError("expected a JSON object, got: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }
    return object
}

// MARK: Tables

/// How the values behind a running animation are posted.
enum QueuedPosting: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case oneByOne = "one request each"
    case batch = "one batch"

    var testDescription: String { rawValue }
}

/// A client message the server must refuse.
struct BadClientMessage: Sendable, CustomTestStringConvertible {
    enum Payload: Sendable {
        case text(String)
        case binary([UInt8])
        /// The same message, many times as fast as the socket takes them.
        case repeated(String, times: Int)
    }

    let name: String
    let payload: Payload
    let closeCode: UInt16

    var testDescription: String { "\(name) → \(closeCode)" }

    static let all = [
        BadClientMessage(name: "not JSON", payload: .text("pause please"), closeCode: 1007),
        BadClientMessage(name: "a JSON array", payload: .text(#"["pause"]"#), closeCode: 1007),
        BadClientMessage(name: "no type", payload: .text(#"{"value":15}"#), closeCode: 1007),
        BadClientMessage(name: "fps out of range", payload: .text(#"{"type":"fps","value":0}"#), closeCode: 1007),
        BadClientMessage(name: "carousel without action", payload: .text(#"{"type":"carousel","id":"news"}"#), closeCode: 1007),
        BadClientMessage(name: "a binary message", payload: .binary([1, 2, 3]), closeCode: 1003),
        BadClientMessage(
            name: "a message over the 4 KiB screen limit",
            payload: .text(#"{"type":"note","pad":""# + String(repeating: "x", count: 4_100) + #""}"#), closeCode: 1009),
        BadClientMessage(
            name: "an object of thousands of keys", payload: .text(manyKeys(20_000)), closeCode: 1009),
        BadClientMessage(name: "a flood of valid messages", payload: .repeated(#"{"type":"pause"}"#, times: 500), closeCode: 1008),
    ]

    /// `{"k0":0,"k1":0,…}` with `count` keys.
    private static func manyKeys(_ count: Int) -> String {
        "{" + (0..<count).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
    }
}

/// An upgrade request and the answer it must get.
struct UpgradeAttempt: Sendable, CustomTestStringConvertible {
    let name: String
    let target: String
    let headers: [(String, String)]
    let status: Int
    let error: String?
    var offersVersion13 = false

    var testDescription: String { "\(name) → \(status)" }

    private static let base: [(String, String)] = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Version", "13"),
    ]

    private static func without(_ name: String) -> [(String, String)] {
        base.filter { $0.0 != name }
    }

    static let all = [
        UpgradeAttempt(
            name: "an origin of this host", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://localhost:{port}")], status: 101, error: nil),
        UpgradeAttempt(
            name: "a foreign origin", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://evil.example")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "this host on another port", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://localhost:1")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "a rebound name whose Host header names it too", target: "/ws?dashboard=demo",
            headers: base + [("Host", "attacker.example:{port}"), ("Origin", "https://attacker.example:{port}")],
            status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "this host over plain http", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "http://localhost:{port}")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "a Host without a port and an origin on another port", target: "/ws?dashboard=demo",
            headers: base + [("Host", "localhost"), ("Origin", "https://localhost:8080")],
            status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "no Sec-WebSocket-Version", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Version"), status: 426, error: nil, offersVersion13: true),
        UpgradeAttempt(
            name: "Sec-WebSocket-Version 8", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Version") + [("Sec-WebSocket-Version", "8")], status: 426, error: nil,
            offersVersion13: true),
        UpgradeAttempt(
            name: "no Sec-WebSocket-Key", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Key"), status: 400, error: nil),
        UpgradeAttempt(
            name: "fps 0", target: "/ws?dashboard=demo&fps=0", headers: base, status: 400, error: "invalid_fps"),
        UpgradeAttempt(
            name: "fps 61", target: "/ws?dashboard=demo&fps=61", headers: base, status: 400, error: "invalid_fps"),
        UpgradeAttempt(name: "another path", target: "/api/v1/metrics", headers: base, status: 404, error: "not_found"),
        UpgradeAttempt(
            name: "plain GET of /ws", target: "/ws?dashboard=demo&plain", headers: [], status: 426,
            error: "upgrade_required"),
    ]
}

/// A malformed frame a screen sends and the close code it must earn.
struct BrokenFrame: Sendable, CustomTestStringConvertible {
    enum Payload: Sendable {
        case bytes([UInt8])
        case filled(count: Int)

        var bytes: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .filled(let count): [UInt8](repeating: UInt8(ascii: "a"), count: count)
            }
        }
    }

    let name: String
    var opcode: UInt8 = 0x1
    var payload: Payload = .bytes(Array(#"{"type":"pause"}"#.utf8))
    var fin = true
    var rsv: UInt8 = 0
    var masked = true
    let closeCode: UInt16

    var testDescription: String { "\(name) → \(closeCode)" }

    /// The default `WebSocketConfiguration.maxMessageBytes`, which `rollboard serve` keeps.
    static let maxMessageBytes = WebSocketConfiguration().maxMessageBytes

    static let all = [
        BrokenFrame(name: "an unmasked frame", masked: false, closeCode: 1002),
        BrokenFrame(name: "reserved data opcode 0x3", opcode: 0x3, closeCode: 1002),
        BrokenFrame(name: "reserved control opcode 0xB", opcode: 0xB, payload: .bytes([]), closeCode: 1002),
        BrokenFrame(name: "RSV1 without permessage-deflate", rsv: 0x4, closeCode: 1002),
        BrokenFrame(name: "a continuation with nothing to continue", opcode: 0x0, closeCode: 1002),
        BrokenFrame(name: "a fragmented ping", opcode: 0x9, payload: .bytes([1]), fin: false, closeCode: 1002),
        BrokenFrame(name: "a ping of 126 bytes", opcode: 0x9, payload: .filled(count: 126), closeCode: 1002),
        BrokenFrame(name: "invalid UTF-8 text", payload: .bytes([0x7B, 0xC3, 0x28, 0x7D]), closeCode: 1007),
        BrokenFrame(name: "a text message one byte over the limit", payload: .filled(count: maxMessageBytes + 1), closeCode: 1009),
    ]
}

/// A producer request the API must refuse, and how.
struct BadProducerRequest: Sendable, CustomTestStringConvertible {
    enum Token: Sendable {
        case valid, wrong, none
    }

    let name: String
    var method = "POST"
    var target = "/api/v1/metrics/revenue"
    var body = #"{"value": 1}"#
    var oversizedBody: Int?
    var token = Token.valid
    var contentType: String? = "application/json"
    let status: Int
    let error: String
    var header: (String, String)?

    var testDescription: String { "\(name) → \(status) \(error)" }

    static let all = [
        BadProducerRequest(
            name: "no token", token: .none, status: 401, error: "unauthorized",
            header: ("WWW-Authenticate", #"Bearer realm="rollboard""#)),
        BadProducerRequest(
            name: "a wrong token", token: .wrong, status: 401, error: "unauthorized",
            header: ("WWW-Authenticate", "invalid_token")),
        BadProducerRequest(name: "an unknown metric", target: "/api/v1/metrics/profit", status: 404, error: "unknown_metric"),
        BadProducerRequest(name: "a wheel as a metric", target: "/api/v1/metrics/status", status: 404, error: "unknown_metric"),
        BadProducerRequest(name: "an unknown endpoint", target: "/api/v1/gauges/revenue", status: 404, error: "not_found"),
        BadProducerRequest(name: "a non-finite value", body: #"{"value": 1e400}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "visitors too wide for 5 columns", target: "/api/v1/metrics/visitors", body: #"{"value": 123456}"#,
            status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "revenue too wide for 10 columns", body: #"{"value": 123456789.5}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(name: "an interval of 0", body: #"{"value": 1, "interval": 0}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(name: "malformed JSON", body: #"{"value": }"#, status: 400, error: "malformed_json"),
        BadProducerRequest(name: "NaN", body: #"{"value": NaN}"#, status: 400, error: "malformed_json"),
        BadProducerRequest(name: "a JSON array", body: "[1]", status: 400, error: "malformed_json"),
        BadProducerRequest(name: "a string value", body: #"{"value": "12"}"#, status: 400, error: "wrong_type"),
        BadProducerRequest(name: "no value", body: #"{"interval": 1}"#, status: 400, error: "missing_field"),
        BadProducerRequest(name: "a misspelt field", body: #"{"vaule": 1}"#, status: 400, error: "unknown_field"),
        BadProducerRequest(
            name: "a text/plain body", contentType: "text/plain", status: 415, error: "unsupported_media_type"),
        BadProducerRequest(name: "no content type", contentType: nil, status: 415, error: "unsupported_media_type"),
        // The transport's limit equals limits.maxBodyBytes, so it answers before the API does (with its own code).
        BadProducerRequest(name: "a body over 64 KiB", oversizedBody: 65_537, status: 413, error: "content_too_large"),
        BadProducerRequest(
            name: "DELETE of a metric", method: "DELETE", body: "", contentType: nil, status: 405,
            error: "method_not_allowed", header: ("Allow", "GET, HEAD, POST")),
        BadProducerRequest(
            name: "POST to /healthz", target: "/healthz", status: 405, error: "method_not_allowed",
            header: ("Allow", "GET, HEAD")),
        BadProducerRequest(
            name: "POST to /metrics", target: "/metrics", status: 405, error: "method_not_allowed",
            header: ("Allow", "GET, HEAD")),
        BadProducerRequest(
            name: "a batch item with an unknown id", target: "/api/v1/metrics",
            body: #"{"updates":[{"id":"revenue","value":1},{"id":"profit","value":2}]}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "an empty batch", target: "/api/v1/metrics", body: #"{"updates":[]}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel index 5 of 5 labels", target: "/api/v1/wheels/status", body: #"{"index": 5}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel progress 1.5", target: "/api/v1/wheels/status", body: #"{"progress": 1.5}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel index and progress", target: "/api/v1/wheels/status", body: #"{"index": 1, "progress": 0.5}"#,
            status: 400, error: "bad_request"),
        BadProducerRequest(
            name: "a fractional wheel index", target: "/api/v1/wheels/status", body: #"{"index": 1.5}"#, status: 400,
            error: "wrong_type"),
        BadProducerRequest(
            name: "carousel action spin", target: "/api/v1/carousels/news", body: #"{"action": "spin"}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "carousel goto page 4 of 4 slides", target: "/api/v1/carousels/news",
            body: #"{"action": "goto", "page": 4}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "carousel next with a page", target: "/api/v1/carousels/news", body: #"{"action": "next", "page": 1}"#,
            status: 400, error: "bad_request"),
        BadProducerRequest(
            name: "carousel goto without a page", target: "/api/v1/carousels/news", body: #"{"action": "goto"}"#,
            status: 400, error: "missing_field"),
        BadProducerRequest(
            name: "GET of a carousel", method: "GET", target: "/api/v1/carousels/news", body: "", contentType: nil,
            status: 405, error: "method_not_allowed", header: ("Allow", "POST")),
    ]
}

/// A read that must answer, with what its answer holds.
struct PageRequest: Sendable, CustomTestStringConvertible {
    let target: String
    var accept: String? = nil
    let status: Int
    let contentType: String
    let contains: String

    var testDescription: String { "GET \(target)\(accept.map { " (Accept: \($0))" } ?? "") → \(status)" }

    /// What a browser sends as `Accept` for a page.
    static let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    static let all = [
        PageRequest(target: "/healthz", status: 200, contentType: "application/json", contains: #""status":"ok""#),
        PageRequest(target: "/metrics", status: 200, contentType: "text/plain", contains: "rollboard_posts_accepted_total 1"),
        PageRequest(target: "/metrics", status: 200, contentType: "text/plain", contains: "rollboard_store_commit_seconds_count 1\n"),
        PageRequest(target: "/d/demo", status: 200, contentType: "text/html", contains: "<html"),
        PageRequest(target: "/d/nope", status: 404, contentType: "application/json", contains: "unknown_dashboard"),
        PageRequest(
            target: "/d/nope", accept: browser, status: 404, contentType: "text/html",
            contains: #"No dashboard “nope”"#),
        PageRequest(
            target: "/d/%3Cb%3Ex", accept: browser, status: 404, contentType: "text/html",
            contains: #"<a class="refusal__link" href="/" data-carry-query>the list of dashboards</a>"#),
        PageRequest(target: "/", status: 200, contentType: "text/html", contains: "<html"),
        PageRequest(target: "/api/v1/dashboards/demo", status: 200, contentType: "application/json", contains: #""id":"demo""#),
        PageRequest(target: "/api/v1/metrics/orders", status: 200, contentType: "application/json", contains: #""value":12"#),
    ]
}
