import Foundation
import RollboardNet
import RollboardClient
import Testing

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

    /// A screen of `live` on `target` that has read its hello.
    static func greeted(by live: LiveServer, _ target: String = "/ws?dashboard=demo") throws -> Screen {
        let screen = try Screen(live.webSocket(target))
        _ = try screen.hello()
        return screen
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


/// A JSON object from bytes, or an error showing what came instead.
func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        throw LiveServerError("expected a JSON object, got: \(String(decoding: bytes.prefix(300), as: UTF8.self))")
    }
    return object
}
