import Logging
import RollboardTestSupport
import Synchronization

@testable import RollboardNet
@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// Counts how often tiles were encoded.
final class EncodeCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

extension DashboardHub {
    /// The hub of a one-tile "ops" dashboard (tile `a`, a ``RampTile`` at 1, fed by the metric `orders`), on `clock`.
    static func ops(clock: FrameClock = .monotonic()) -> DashboardHub {
        DashboardHub(
            dashboardID: "ops",
            helloDashboard: #"{"id":"ops","title":"Ops","tiles":[{"id":"a","type":"counter"}]}"#,
            tiles: [RampTile(tileID: "a", from: 1, to: 1)],
            tilesByMetric: ["orders": ["a"]],
            configuration: .init(defaultFPS: 30, slowClientTimeout: 10),
            clock: clock,
            metrics: ServerMetrics(),
            logger: Logger(label: "test")
        )
    }
}

/// A tile that moves linearly from its value to a new one over one second; its state is `{"value":V}`.
struct RampTile: LiveTile {
    let tileID: String
    var from: Double
    var to: Double
    var start = 0.0
    var encodes = EncodeCounter()

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, _, _, _, _) = change else { return }
        guard value.isFinite else { throw AnimationTestError.refused }
        from = position(at: time)
        to = value
        start = time
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {
        guard viewerAction == .next else { return }
        from = position(at: time)
        to = from + 100
        start = time
    }

    func position(at time: Double) -> Double {
        let progress = min(max(time - start, 0), 1)
        return from + (to - from) * progress
    }

    func state(at time: Double) -> TileState? {
        encodes.increment()
        return TileState(members: [.init("value", jsonNumber(position(at: time)))])
    }

    func nextMotion(after time: Double) -> Double? {
        from != to && time < start + 1 ? time : nil
    }

    func calmState(at time: Double) -> TileState? {
        state(at: max(time, start + 1))
    }

    func nextCalmMotion(after time: Double) -> Double? {
        nil
    }
}

enum AnimationTestError: Error {
    case refused
}

/// Records what a hub sends a screen (stream messages as their uncompressed text; primers as "primer"); its
/// writability is set by the test. Each message and the close are ``changes`` a test can wait on.
final class RecordingSink: FrameSink {
    private let state = Mutex((messages: [String](), writable: true, closed: WebSocketCloseCode?.none))
    let changes: Changes

    init(changes: Changes = Changes()) {
        self.changes = changes
    }

    var isWritable: Bool {
        get { state.withLock { $0.writable } }
        set { state.withLock { $0.writable = newValue } }
    }
    var messages: [String] { state.withLock { $0.messages } }
    /// The messages without primers.
    var texts: [String] { messages.filter { $0 != "primer" } }
    var closeCode: WebSocketCloseCode? { state.withLock { $0.closed } }

    func send(text: String) {
        state.withLock { $0.messages.append(text) }
        changes.changed()
    }

    func send(_ message: PreparedMessage) {
        let text = message.isPrimer ? "primer" : Self.payloadText(of: message.plainFrame)
        state.withLock { $0.messages.append(text) }
        changes.changed()
    }

    func close(code: WebSocketCloseCode, reason: String) {
        state.withLock { $0.closed = code }
        changes.changed()
    }

    /// Waits until `condition` holds, checked after each message the sink receives.
    func wait(within seconds: Double = 10, until condition: () -> Bool) async -> Bool {
        await changes.wait(within: seconds, until: condition)
    }

    /// The payload of an unmasked server frame, as text.
    static func payloadText(of frame: [UInt8]) -> String {
        let length = frame[1] & 0x7F
        let header = length == 126 ? 4 : length == 127 ? 10 : 2
        return String(decoding: frame[header...], as: UTF8.self)
    }
}
