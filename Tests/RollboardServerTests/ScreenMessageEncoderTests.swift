import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The bytes of every message the hub sends a screen (docs/protocol.md), written in one place.
@Suite("Screen message encoder")
struct ScreenMessageEncoderTests {
    private static let tiles: [(id: String, state: TileState?)] = [
        ("a", TileState(members: [.init("value", "1")])), ("b", nil),
    ]

    @Test("a hello carries the fps range always, and motion, resume and a stale feed only when they apply, in the documented order")
    func hello() {
        var hello = HelloMessage(
            fps: 30, fpsRange: 1...60, isCalm: false, frameNumber: 12, epoch: "e1", changesSeq: 40, resume: nil,
            isFeedLive: true, dashboard: #"{"id":"ops"}"#, tiles: Self.tiles)
        #expect(ScreenMessageEncoder.hello(hello) == #"{"type":"hello","protocol":2,"fps":30,"fpsRange":[1,60],"seq":12,"changes":{"epoch":"e1","seq":40},"dashboard":{"id":"ops"},"tiles":{"a":{"value":1},"b":null}}"#)
        hello.isCalm = true
        hello.resume = "replay"
        hello.isFeedLive = false
        #expect(ScreenMessageEncoder.hello(hello) == #"{"type":"hello","protocol":2,"fps":30,"fpsRange":[1,60],"motion":"reduced","seq":12,"changes":{"epoch":"e1","seq":40},"resume":"replay","feed":"stale","dashboard":{"id":"ops"},"tiles":{"a":{"value":1},"b":null}}"#)
    }

    @Test(
        "a hello carries the page's build and reload spread after the feed, only when the node has a build",
        arguments: [
            (PageBuild(id: "0123abcd", reloadSpread: 30), #","feed":"stale","page":{"build":"0123abcd","reloadSpread":30},"dashboard":"#),
            (PageBuild(id: "b\"1", reloadSpread: 2.5), #","feed":"stale","page":{"build":"b\"1","reloadSpread":2.5},"dashboard":"#),
            (nil, #","feed":"stale","dashboard":"#),
        ])
    func helloPage(page: PageBuild?, expected: String) {
        let hello = HelloMessage(
            fps: 30, fpsRange: 1...60, isCalm: false, frameNumber: 1, epoch: "e1", changesSeq: 2, resume: nil,
            isFeedLive: false, dashboard: "{}", tiles: [], page: page)
        #expect(ScreenMessageEncoder.hello(hello) == #"{"type":"hello","protocol":2,"fps":30,"fpsRange":[1,60],"seq":1,"changes":{"epoch":"e1","seq":2}"# + expected + #"{},"tiles":{}}"#)
    }

    @Test("states and frames carry the store's position c only when given")
    func statesAndFrames() {
        #expect(ScreenMessageEncoder.state(frameNumber: 3, changes: 9, tiles: Self.tiles) == #"{"type":"state","seq":3,"c":9,"tiles":{"a":{"value":1},"b":null}}"#)
        #expect(ScreenMessageEncoder.state(frameNumber: 3, changes: nil, tiles: []) == #"{"type":"state","seq":3,"tiles":{}}"#)
        #expect(ScreenMessageEncoder.frame(number: 4, changes: 9, [("a", "[]"), ("b\"", "{}")]) == #"{"f":4,"c":9,"t":{"a":[],"b\"":{}}}"#)
        #expect(ScreenMessageEncoder.frame(number: 5, []) == #"{"f":5,"t":{}}"#)
    }

    @Test("the other messages")
    func others() {
        #expect(ScreenMessageEncoder.announcement("Fire drill", seconds: -1) == #"{"type":"announce","text":"Fire drill","seconds":0}"#)
        #expect(ScreenMessageEncoder.identify(name: "Lobby", seconds: 2.5) == #"{"type":"identify","name":"Lobby","seconds":2.5}"#)
        #expect(ScreenMessageEncoder.feed(live: true) == #"{"type":"status","feed":"live"}"#)
        #expect(ScreenMessageEncoder.sources(stale: ["b": "down", "a": "timeout"]) == #"{"type":"sources","stale":{"a":"timeout","b":"down"}}"#)
        #expect(ScreenMessageEncoder.reload == #"{"type":"reload"}"#)
        #expect(
            ScreenMessageEncoder.assign(url: "/d/demo?name=Lobby%20TV&kiosk")
                == #"{"type":"assign","url":"/d/demo?name=Lobby%20TV&kiosk"}"#)
    }
}
