package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// The JSON object of a request body, whose media type and size ``BodyLimit`` has already checked.
enum JSONBody {
    /// The body as a JSON object: 400 `malformed_json` for anything else.
    static func object(_ request: HTTPRequest) throws(APIError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw .malformedJSON("invalid JSON: \(error)")
        }
        guard case .object = value else {
            throw .malformedJSON("the body must be a JSON object, got \(value.kindDescription)")
        }
        return value
    }

    /// 400 `unknown_field` for the first member of `object` not in `allowed`; `prefix` names where `object` is.
    static func rejectUnknownFields(_ object: JSONValue, allowed: [String], prefix: String) throws(APIError) {
        guard case .object(let members) = object else { return }
        if let unknown = members.first(where: { !allowed.contains($0.key) }) {
            throw .unknownField(prefix + unknown.key, allowed: allowed)
        }
    }
}
