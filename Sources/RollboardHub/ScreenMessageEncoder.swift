package import RollboardAccess
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The JSON text of every message the hub sends a screen (docs/protocol.md): the one place their bytes are written.
/// ``HubStateMachine`` decides what a screen is told and hands the values here; the text goes out in its actions.
package enum ScreenMessageEncoder {
    /// The protocol version the hub speaks (the hello's `protocol`).
    package static let protocolVersion = 2

    /// The first message to a screen (see ``HelloMessage``).
    static func hello(_ hello: HelloMessage) -> String {
        var text = "{\"type\":\"hello\",\"protocol\":\(protocolVersion),\"fps\":\(hello.fps),"
        text += "\"fpsRange\":[\(hello.fpsRange.lowerBound),\(hello.fpsRange.upperBound)],"
        if hello.isCalm { text += "\"motion\":\"reduced\"," }
        text += "\"seq\":\(hello.frameNumber),"
        text += "\"changes\":{\"epoch\":\(JSONText.quoted(hello.epoch)),\"seq\":\(hello.changesSeq)},"
        if let resume = hello.resume { text += "\"resume\":\"\(resume)\"," }
        if !hello.isFeedLive { text += "\"feed\":\"stale\"," }
        if let page = hello.page {
            text += "\"page\":{\"build\":\(JSONText.quoted(page.id)),\"reloadSpread\":\(jsonNumber(page.reloadSpread, places: 3))},"
        }
        return text + "\"dashboard\":\(hello.dashboard),\"tiles\":" + tileStates(hello.tiles) + "}"
    }

    /// `{"type":"state",…}`: every tile's state in full at frame `frameNumber`; `"c":S` when `changes` is given (the
    /// last stored change the tiles show).
    static func state(frameNumber: Int, changes: UInt64?, tiles: [(id: String, state: TileState?)]) -> String {
        "{\"type\":\"state\",\"seq\":\(frameNumber)," + (changes.map { "\"c\":\($0)," } ?? "") + "\"tiles\":"
            + tileStates(tiles) + "}"
    }

    /// `{"f":N,"t":{…}}`: a protocol 2 frame of the tiles' patches; `"c":S` after `f` when the tiles took stored
    /// changes up to `S` since the stream's last frame.
    static func frame(number: Int, changes: UInt64? = nil, _ patches: [(id: String, patch: String)]) -> String {
        var text = "{\"f\":\(number)," + (changes.map { "\"c\":\($0)," } ?? "") + "\"t\":{"
        for (offset, entry) in patches.enumerated() {
            if offset > 0 { text += "," }
            text += JSONText.quoted(entry.id) + ":" + entry.patch
        }
        return text + "}}"
    }

    /// The `announce` message: `text` full-screen for `seconds` (never fewer than 0).
    static func announcement(_ text: String, seconds: Double) -> String {
        "{\"type\":\"announce\",\"text\":\(JSONText.quoted(text)),"
            + "\"seconds\":\(jsonNumber(max(seconds, 0), places: 3))}"
    }

    /// The `status` message: whether changes reach this node.
    static func feed(live: Bool) -> String {
        live ? #"{"type":"status","feed":"live"}"# : #"{"type":"status","feed":"stale"}"#
    }

    /// `{"type":"sources","stale":{TILE:REASON,…}}`: every tile whose source fails, with why, in tile id order.
    static func sources(stale: [String: String]) -> String {
        let members = stale.keys.sorted().map { JSONText.quoted($0) + ":" + JSONText.quoted(stale[$0]!) }
        return "{\"type\":\"sources\",\"stale\":{\(members.joined(separator: ","))}}"
    }

    /// The `identify` message: the screen shows `name` large for `seconds`.
    static func identify(name: String, seconds: Double) -> String {
        "{\"type\":\"identify\",\"name\":\(JSONText.quoted(name)),\"seconds\":\(jsonNumber(seconds, places: 3))}"
    }

    /// The `assign` message: the screen goes to `url` (`/d/ID?…` or `/p/ID?…`), adding its own key.
    static func assign(url: String) -> String {
        "{\"type\":\"assign\",\"url\":\(JSONText.quoted(url))}"
    }

    /// The `reload` message: the screen reloads its page.
    static let reload = #"{"type":"reload"}"#

    /// `{"ID":STATE,…}`: tiles' states in full, in the order given.
    private static func tileStates(_ tiles: [(id: String, state: TileState?)]) -> String {
        var text = "{"
        for (offset, tile) in tiles.enumerated() {
            if offset > 0 { text += "," }
            text += JSONText.quoted(tile.id) + ":" + TileState.fullJSON(tile.state)
        }
        return text + "}"
    }
}
