package import RollboardConfig
package import RollboardCore
import RollboardNet

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
        let target = try ScreenPage(body, name: name, configuration: configuration)
        dashboards = target.dashboards
        page = target.page
    }
}
