package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardSources

/// What a screen is sent to show, as `POST /api/v1/admin/pairings` and `POST /api/v1/admin/screens/{screen}/assign`
/// take it: `"show":{"dashboard":ID}|{"playlist":ID}`, `"theme"?: "dark"|"light"|null`, `"kiosk"?: bool`, checked
/// field by field (an unknown dashboard or playlist is 422 naming `show.dashboard` or `show.playlist`).
struct ScreenPage {
    /// What a viewer key needs to open it: the dashboard, or every dashboard of the playlist.
    let dashboards: [String]
    /// The page, without a key: `/d/ID?name=…` or `/p/ID?name=…`, `&theme=…`, `&kiosk`.
    let page: String

    init(_ body: JSONValue, name: String, configuration: RollboardConfiguration) throws(APIError) {
        guard let show = body["show"] else { throw .missingField("show") }
        try JSONBody.rejectUnknownFields(show, allowed: ["dashboard", "playlist"], prefix: "show.")
        var page: String
        switch (show["dashboard"], show["playlist"]) {
        case (.string(let id)?, nil):
            guard configuration.dashboard(id) != nil else {
                throw .invalidValue("show.dashboard: no dashboard \(JSONText.quoted(id)) is configured")
            }
            dashboards = [id]
            page = "/d/" + SourceFetch.percentEncoded(id)
        case (nil, .string(let id)?):
            guard let playlist = configuration.playlist(id) else {
                throw .invalidValue("show.playlist: no playlist \(JSONText.quoted(id)) is configured")
            }
            var ids: [String] = []
            for entry in playlist.entries where !ids.contains(entry.dashboard) { ids.append(entry.dashboard) }
            dashboards = ids
            page = "/p/" + SourceFetch.percentEncoded(id)
        case (let value?, nil), (nil, let value?):
            let field = show["dashboard"] == nil ? "show.playlist" : "show.dashboard"
            throw .wrongType(field, expected: "an id", got: value)
        default:
            throw .invalidValue("show: must be {\"dashboard\": ID} or {\"playlist\": ID}")
        }
        page += "?name=" + SourceFetch.percentEncoded(name)
        switch body["theme"] {
        case nil, .null?: break
        case .string(let theme)? where theme == "dark" || theme == "light": page += "&theme=" + theme
        case let other?: throw .wrongType("theme", expected: "\"dark\" or \"light\"", got: other)
        }
        switch body["kiosk"] {
        case nil, .null?, .bool(false)?: break
        case .bool(true)?: page += "&kiosk"
        case let other?: throw .wrongType("kiosk", expected: "true or false", got: other)
        }
        self.page = page
    }
}
