package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardSources

/// `{"code","name","show":{"dashboard":ID}|{"playlist":ID},"theme"?,"kiosk"?}` of `POST /api/v1/admin/pairings`,
/// checked field by field.
struct PairingRequest {
    /// As typed (the pairing codes normalise it).
    let code: String
    /// The TV's name: its viewer key's name and its screen's.
    let name: String
    /// What its viewer key opens: the dashboard, or every dashboard of the playlist.
    let dashboards: [String]
    /// The page the TV goes to, without its key: `/d/ID?name=…` or `/p/ID?name=…`, `&theme=…`, `&kiosk`.
    let page: String

    init(_ body: JSONValue, configuration: RollboardConfiguration) throws(APIError) {
        try JSONBody.rejectUnknownFields(body, allowed: ["code", "name", "show", "theme", "kiosk"], prefix: "")
        guard let codeValue = body["code"] else { throw .missingField("code") }
        guard case .string(let code) = codeValue else { throw .wrongType("code", expected: "a string", got: codeValue) }
        self.code = code
        guard let nameValue = body["name"] else { throw .missingField("name") }
        guard case .string(let name) = nameValue else { throw .wrongType("name", expected: "a string", got: nameValue) }
        guard (1...100).contains(name.count) else { throw .invalidValue("name: must be 1 to 100 characters") }
        if let problem = DisplayText.name.problem(with: name) { throw .invalidValue("name: \(problem)") }
        self.name = name
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
