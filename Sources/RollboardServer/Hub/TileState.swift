import RollboardNet

/// One tile's wire state at one moment (protocol 2): an odometer's digit columns in thousandths of a digit, and the
/// other members already encoded as JSON. A tile without a value has no state (`nil`, sent as `null`).
///
/// Screens are sent a state in full once (`hello`, `state`) and then only patches: the columns and members that
/// differ from the previous state of the stream (``appendPatch(from:to:into:)``).
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

    /// Odometer columns, most significant first, each in thousandths of a digit in [0, 10000); empty for the other
    /// tile types.
    var columns: [Int32]
    /// The other members, in the order they are sent.
    var members: [Member]

    init(columns: [Int32] = [], members: [Member]) {
        self.columns = columns
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

    /// The state in full: `{"n":N,"d":[0,…],…}` for an odometer, `{…}` for the others, `null` without a value.
    static func fullJSON(_ state: TileState?) -> String {
        var text = ""
        appendPatch(from: nil, to: state, into: &text)
        return text.isEmpty ? "null" : text
    }

    /// Appends the patch that turns `old` into `new` (protocol 2's frame entry) and returns whether there was one:
    /// `null` when the value went away, the full state when there was none, else the changed columns (as the array
    /// shorthand when nothing else changed) and members, with `null` for a member that went away.
    @discardableResult
    static func appendPatch(from old: TileState?, to new: TileState?, into text: inout String) -> Bool {
        guard let new else {
            guard old != nil else { return false }
            text += "null"
            return true
        }
        var body = ""
        var columnsOnly = true
        if let old, old.columns.count == new.columns.count {
            if let first = new.columns.indices.first(where: { new.columns[$0] != old.columns[$0] }) {
                let last = new.columns.indices.last(where: { new.columns[$0] != old.columns[$0] })!
                body += "\"d\":"
                appendColumns(new.columns, from: first, through: last, into: &body)
            }
        } else if !new.columns.isEmpty || old != nil && !old!.columns.isEmpty {
            body += "\"n\":\(new.columns.count),\"d\":"
            appendColumns(new.columns, from: 0, through: new.columns.count - 1, into: &body)
            columnsOnly = false
        }
        let columnsPart = body
        for member in new.members where old?.members.contains(member) != true {
            if !body.isEmpty { body += "," }
            body += "\"\(member.name)\":\(member.json)"
            columnsOnly = false
        }
        for member in old?.members ?? [] where !new.members.contains(where: { $0.name == member.name }) {
            if !body.isEmpty { body += "," }
            body += "\"\(member.name)\":null"
            columnsOnly = false
        }
        if old == nil, body.isEmpty {
            text += "{}"
            return true
        }
        guard !body.isEmpty else { return false }
        if columnsOnly {
            text += columnsPart.dropFirst(4)
        } else {
            text += "{" + body + "}"
        }
        return true
    }

    /// `[i,P_i,…,P_last]`.
    private static func appendColumns(_ columns: [Int32], from first: Int, through last: Int, into text: inout String) {
        text += "[\(first)"
        if first <= last {
            for index in first...last { text += ",\(columns[index])" }
        }
        text += "]"
    }
}
