import Foundation
import RollboardClient
import RollboardNet
import RollboardTestSupport
import Testing

/// The whole product over the wire (the real server with TLS on a free port and the shipped demo dashboard): what a
/// screen is greeted with and how posted values reach it. Animations are posted with short intervals; waits are
/// bounded by deadlines, never fixed sleeps.
@Suite("End to end: a screen is greeted with the dashboard and sees posted values roll")
struct ScreenFramesEndToEndTests {
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
            let screen = try Screen.greeted(by: live)
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
            let watcher = try Screen.greeted(by: live)
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
            let screen = try Screen.greeted(by: live)
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
            let screen = try Screen.greeted(by: live)
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
            let screen = try Screen.greeted(by: live)
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 777.77, "animated": false}"#).status.code == 202)
            let frames = try screen.frames { revenue(in: $0) != nil }
            #expect(revenue(in: frames[frames.count - 1]) == ScreenOdometer(digits: [7, 7, 7, 7, 7], target: 777.77))
        }
    }

    @Test("a screen that connects mid-animation joins the roll and comes to rest on the same digits")
    func lateScreenRestsOnTheSameDigits() throws {
        try withLiveServer { live in
            let first = try Screen.greeted(by: live)
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

    private static let demoTiles: [(id: String, type: String)] = [
        ("revenue", "odometer"), ("visitors", "odometer"), ("orders", "counter"), ("conversion", "counter"),
        ("temperature", "odometer"), ("status", "wheel"), ("news", "carousel"), ("notice", "text"),
    ]
}
