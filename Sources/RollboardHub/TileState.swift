package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// One tile's wire state at one moment (protocol 2): an odometer's digit columns in thousandths of a digit, and the
/// other members already encoded as JSON. A tile without a value has no state (`nil`, sent as `null`).
///
/// Screens are sent a state in full once (`hello`, `state`) and then only patches (``patch(from:to:exact:)``). Columns
/// travel as motion: screens keep a velocity per column (thousandths per frame) and move every column of a tile by it
/// whenever a frame carries the tile's columns, after adding the frame's corrections. A column turning at a steady
/// speed then costs nothing per frame but the tile's `[]`.
struct TileState: Equatable, Sendable {
    /// One named member and its JSON text.
    struct Member: Equatable, Sendable {
        let name: String
        let json: String

        init(_ name: String, _ json: String) {
            self.name = name
            self.json = json
        }
    }

    /// A patch's text and the state screens have once they applied it.
    struct Patch: Equatable, Sendable {
        let text: String
        let state: TileState?
    }

    /// The number of thousandths in one turn of a digit column.
    static let turn: Int32 = 10_000

    /// Odometer columns, most significant first, each in thousandths of a digit in [0, 10000); empty for the other
    /// tile types.
    var columns: [Int32]
    /// How far each column moves in a frame that carries the tile's columns, in thousandths of a digit in
    /// (-5000, 5000]: the screens' velocities (zero for a tile's own states, which do not move by themselves).
    var velocities: [Int32]
    /// The other members, in the order they are sent.
    var members: [Member]

    init(columns: [Int32] = [], velocities: [Int32]? = nil, members: [Member]) {
        self.columns = columns
        self.velocities = velocities ?? [Int32](repeating: 0, count: columns.count)
        self.members = members
    }

    /// A position as whole thousandths, wrapped into [0, `modulo`) when a modulo is given.
    static func thousandths(_ position: Double, modulo: Int32? = nil) -> Int32 {
        guard position.isFinite else { return 0 }
        let value = Int32(clamping: Int64((position * 1000).rounded()))
        guard let modulo, modulo > 0 else { return value }
        let wrapped = value % modulo
        return wrapped < 0 ? wrapped + modulo : wrapped
    }

    /// The state in full: `{"d":[P,…],"v":[V,…],…}` for an odometer (`v` only while a column moves), `{…}` for the
    /// others, `null` without a value.
    static func fullJSON(_ state: TileState?) -> String {
        guard let state else { return "null" }
        var parts: [String] = []
        if !state.columns.isEmpty {
            parts.append("\"d\":" + list(state.columns))
            if state.velocities.contains(where: { $0 != 0 }) { parts.append("\"v\":" + list(state.velocities)) }
        }
        for member in state.members { parts.append("\"\(member.name)\":\(member.json)") }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The patch that brings screens holding `old` to `new` (protocol 2's frame entry), or `nil` when they need none:
    /// `null` when the value went away, the full state when there was none, else the tile's motion (as the array
    /// shorthand when nothing else changed) and changed members, with `null` for a member that went away; `d` with
    /// every column when the column count changed.
    ///
    /// A column that moves stays within max(1, |v|/100) thousandths of `new` (v: its velocity per frame, so within a
    /// hundredth of what it travels in a frame) and is corrected once it strays further; a column on a whole digit is
    /// exact, and with `exact` (the tile is at rest after this frame) every column lands exactly on `new`.
    static func patch(from old: TileState?, to new: TileState?, exact: Bool = true) -> Patch? {
        guard let new else { return old == nil ? nil : Patch(text: "null", state: nil) }
        let arriving = TileState(columns: new.columns, members: new.members)
        guard let old else { return Patch(text: fullJSON(arriving), state: arriving) }
        var state = old
        var parts: [String] = []
        var motion: String?
        if old.columns.count != new.columns.count {
            state.columns = new.columns
            state.velocities = arriving.velocities
            parts.append("\"d\":" + list(new.columns))
        } else if let moved = state.move(to: new.columns, exact: exact) {
            motion = moved
        }
        for member in new.members where !old.members.contains(member) {
            parts.append("\"\(member.name)\":\(member.json)")
        }
        for member in old.members where !new.members.contains(where: { $0.name == member.name }) {
            parts.append("\"\(member.name)\":null")
        }
        state.members = new.members
        if parts.isEmpty {
            guard let motion else { return nil }
            return Patch(text: motion, state: state)
        }
        if let motion { parts.insert("\"m\":" + motion, at: 0) }
        return Patch(text: "{" + parts.joined(separator: ",") + "}", state: state)
    }

    /// Moves the columns one frame towards `target` as screens will: returns the motion entry (`[i,R_i,…,R_last]`,
    /// the velocity corrections from the first to the last corrected column, or `[]`), or `nil` when no column moves.
    private mutating func move(to target: [Int32], exact: Bool) -> String? {
        var corrections = [Int32](repeating: 0, count: columns.count)
        for index in columns.indices {
            let velocity = velocities[index]
            let error = Self.wrapped(target[index] - columns[index] - velocity)
            let tolerance = exact || target[index] % 1000 == 0 ? 0 : max(1, abs(velocity) / 100)
            if abs(error) > tolerance {
                corrections[index] = Self.wrapped(target[index] - columns[index]) - velocity
            }
        }
        guard corrections.contains(where: { $0 != 0 }) || velocities.contains(where: { $0 != 0 }) else { return nil }
        for index in columns.indices {
            velocities[index] += corrections[index]
            columns[index] = (columns[index] + velocities[index] + Self.turn) % Self.turn
        }
        guard let first = corrections.firstIndex(where: { $0 != 0 }),
            let last = corrections.lastIndex(where: { $0 != 0 })
        else { return "[]" }
        return Self.list([Int32(first)] + corrections[first...last])
    }

    /// A difference of positions as the shortest way round the strip, in (-5000, 5000].
    private static func wrapped(_ difference: Int32) -> Int32 {
        var value = difference % turn
        if value > turn / 2 { value -= turn }
        if value <= -turn / 2 { value += turn }
        return value
    }

    /// `[A,B,…]`.
    private static func list<Numbers: Sequence<Int32>>(_ numbers: Numbers) -> String {
        var text = "["
        for (offset, number) in numbers.enumerated() {
            if offset > 0 { text += "," }
            text += String(number)
        }
        return text + "]"
    }
}
