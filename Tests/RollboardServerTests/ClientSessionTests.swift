import Synchronization
import Testing

@testable import RollboardNet
@testable import RollboardServer

/// Counts how often tiles were encoded.
final class EncodeCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// A tile that moves linearly from its value to a new one over one second.
struct RampTile: LiveTile {
    let tileID: String
    var from: Double
    var to: Double
    var start = 0.0
    var encodes = EncodeCounter()

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, _, _, _) = change else { return }
        from = position(at: time)
        to = value
        start = time
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    func position(at time: Double) -> Double {
        let progress = min(max(time - start, 0), 1)
        return from + (to - from) * progress
    }

    func encodedState(at time: Double) -> String {
        encodes.increment()
        return "{\"value\":\(jsonNumber(position(at: time)))}"
    }

    func nextMotion(after time: Double) -> Double? {
        from != to && time < start + 1 ? time : nil
    }
}

/// Records what a session sends; its writability is set by the test.
final class RecordingSink: FrameSink {
    private let state = Mutex((messages: [String](), writable: true, closed: WebSocketCloseCode?.none))

    var isWritable: Bool {
        get { state.withLock { $0.writable } }
        set { state.withLock { $0.writable = newValue } }
    }
    var messages: [String] { state.withLock { $0.messages } }
    var closeCode: WebSocketCloseCode? { state.withLock { $0.closed } }

    func send(text: String) { state.withLock { $0.messages.append(text) } }
    func close(code: WebSocketCloseCode, reason: String) { state.withLock { $0.closed = code } }
}

@Suite("Client session")
struct ClientSessionTests {
    private func makeSession(sink: RecordingSink, fps: Int = 10, timeout: Double = 5) -> ClientSession {
        ClientSession(
            id: 1,
            sink: sink,
            tiles: [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
            fps: fps,
            slowClientTimeout: timeout,
            now: 0
        )
    }

    @Test("hello tiles hold every tile's state")
    func helloHoldsEveryTile() {
        let session = makeSession(sink: RecordingSink())
        #expect(session.helloTiles() == #"{"a":{"value":0},"b":{"value":5}}"#)
    }

    @Test("hello tiles carry when each value was committed, where known")
    func helloCarriesUpdatedAt() {
        let session = makeSession(sink: RecordingSink())
        #expect(session.helloTiles(updatedAt: ["b": 1_700_000_000.5]) == #"{"a":{"value":0},"b":{"value":5,"updatedAt":1700000000.5}}"#)
    }

    @Test("a frame holds only the tiles that changed, and seq counts frames sent")
    func framesHoldOnlyChangedTiles() throws {
        let sink = RecordingSink()
        let session = makeSession(sink: sink)
        #expect(session.tick(at: 0) == .idle)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "a", at: 0)
        _ = session.tick(at: 0.5)
        _ = session.tick(at: 1.0)
        _ = session.tick(at: 1.5)
        #expect(sink.messages == [
            #"{"type":"frame","seq":1,"tiles":{"a":{"value":5}}}"#,
            #"{"type":"frame","seq":2,"tiles":{"a":{"value":10}}}"#,
        ])
    }

    @Test("a tick encodes only the tiles that moved since the last frame")
    func ticksEncodeOnlyMovingTiles() throws {
        let still = RampTile(tileID: "still", from: 1, to: 1)
        let session = ClientSession(
            id: 1, sink: RecordingSink(), tiles: [RampTile(tileID: "moving", from: 0, to: 0), still], fps: 10,
            slowClientTimeout: 5, now: 0)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "moving", at: 0)
        let before = still.encodes.value
        for frame in 1...20 { _ = session.tick(at: Double(frame) / 10) }
        #expect(still.encodes.value == before)
    }

    @Test("tiles no viewer touched are encoded once per tick for every screen; a viewer's own tile by its screen")
    func sharedStatesAreEncodedOnce() throws {
        let change = TileChange.value(10, interval: nil, animated: true)
        var reference = RampTile(tileID: "a", from: 0, to: 0)
        try reference.apply(change, at: 0)
        let own = [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "a", from: 0, to: 0)]
        let sinks = [RecordingSink(), RecordingSink()]
        let sessions = zip(own, sinks).map { tile, sink in
            ClientSession(id: 1, sink: sink, tiles: [tile], fps: 10, slowClientTimeout: 5, now: 0)
        }
        for session in sessions { try session.apply(change, toTile: "a", at: 0) }
        let encodedAtStart = own.map(\.encodes.value)
        let shared = SharedTileStates(tiles: [reference], time: 0.5)
        for session in sessions { _ = session.tick(at: 0.5, shared: shared) }
        #expect(reference.encodes.value == 1)
        #expect(own.map(\.encodes.value) == encodedAtStart)
        #expect(sinks.map(\.messages) == [[#"{"type":"frame","seq":1,"tiles":{"a":{"value":5}}}"#], [#"{"type":"frame","seq":1,"tiles":{"a":{"value":5}}}"#]])
        sessions[0].apply(viewerAction: .hold, page: nil, toTile: "a", at: 0.5)
        _ = sessions[0].tick(at: 0.7, shared: SharedTileStates(tiles: [reference], time: 0.7))
        #expect(own[0].encodes.value == encodedAtStart[0] + 1)
    }

    @Test("a tick before the client's next frame time sends nothing")
    func ticksRespectTheFrameRate() throws {
        let sink = RecordingSink()
        let session = makeSession(sink: sink, fps: 2)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "a", at: 0)
        _ = session.tick(at: 0.1)
        _ = session.tick(at: 0.2)
        _ = session.tick(at: 0.6)
        #expect(sink.messages.count == 2)
    }

    @Test("a paused client gets nothing, and after resume one frame with the latest state")
    func pauseAndResume() throws {
        let sink = RecordingSink()
        let session = makeSession(sink: sink)
        session.setPaused(true, now: 0)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "a", at: 0)
        #expect(session.tick(at: 0.5) == .idle)
        #expect(session.nextWakeup(after: 0.5) == nil)
        session.setPaused(false, now: 2)
        _ = session.tick(at: 2)
        #expect(sink.messages == [#"{"type":"frame","seq":1,"tiles":{"a":{"value":10}}}"#])
    }

    @Test("a client over its watermark is skipped, then gets one frame with the latest state")
    func backpressureSkipsThenCatchesUp() throws {
        let sink = RecordingSink()
        let session = makeSession(sink: sink)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "a", at: 0)
        sink.isWritable = false
        #expect(session.tick(at: 0.2) == .skipped)
        #expect(session.tick(at: 0.4) == .skipped)
        sink.isWritable = true
        #expect(session.tick(at: 1.2) == .sent(bytes: 51))
        #expect(sink.messages == [#"{"type":"frame","seq":1,"tiles":{"a":{"value":10}}}"#])
    }

    @Test("a client stuck over its watermark past the timeout is closed with 1008")
    func stuckClientIsClosed() throws {
        let sink = RecordingSink()
        let session = makeSession(sink: sink, timeout: 1)
        try session.apply(.value(10, interval: nil, animated: true), toTile: "a", at: 0)
        sink.isWritable = false
        #expect(session.tick(at: 0.1) == .skipped)
        #expect(session.tick(at: 0.6) == .skipped)
        #expect(session.tick(at: 1.1) == .closedAsTooSlow)
        #expect(sink.closeCode == .policyViolation)
        #expect(session.tick(at: 1.2) == .idle)
    }

    @Test("the fps setting is clamped to 1…60")
    func fpsIsClamped() {
        let session = makeSession(sink: RecordingSink())
        session.setFPS(500, now: 0)
        #expect(session.fps == 60)
        session.setFPS(0, now: 0)
        #expect(session.fps == 1)
    }
}
