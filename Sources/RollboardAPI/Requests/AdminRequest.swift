package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardSources
package import RollboardStore

/// The bodies of admin requests, checked field by field.
enum AdminRequest {
    /// `{"name":…,"dashboards":[…]}` of a new viewer key: a name of 1 to 100 characters and, optionally, the
    /// configured dashboards it opens (none given: every one).
    static func key(
        _ body: JSONValue, configuration: RollboardConfiguration
    ) throws(APIError) -> (name: String, dashboards: [String]?) {
        try JSONBody.rejectUnknownFields(body, allowed: ["name", "dashboards"], prefix: "")
        guard let nameValue = body["name"] else { throw .missingField("name") }
        guard case .string(let name) = nameValue else { throw .wrongType("name", expected: "a string", got: nameValue) }
        guard (1...100).contains(name.count) else { throw .invalidValue("name: must be 1 to 100 characters") }
        if let problem = DisplayText.name.problem(with: name) { throw .invalidValue("name: \(problem)") }
        switch body["dashboards"] {
        case nil, .null?:
            return (name, nil)
        case .array(let items)?:
            guard !items.isEmpty else {
                throw .invalidValue("dashboards: must not be empty (leave it out for every dashboard)")
            }
            var ids: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let id) = item else {
                    throw .wrongType("dashboards[\(index)]", expected: "a string", got: item)
                }
                guard configuration.dashboard(id) != nil else {
                    throw .invalidValue("dashboards[\(index)]: no dashboard \(JSONText.quoted(id)) is configured")
                }
                if !ids.contains(id) { ids.append(id) }
            }
            return (name, ids)
        case let other?:
            throw .wrongType("dashboards", expected: "an array of dashboard ids", got: other)
        }
    }

    /// `{"text": …, "seconds": …}`: a text (``DisplayText/text``: 1 to 500 characters, at most 2,000 bytes, no control
    /// character but newlines), shown 0 (take it down) to 86,400 seconds (default 30).
    /// Taking an announcement down (`seconds: 0`) needs no text (left out, null or empty).
    static func announcement(_ body: JSONValue) throws(APIError) -> (text: String, seconds: Double) {
        try JSONBody.rejectUnknownFields(body, allowed: ["text", "seconds"], prefix: "")
        let seconds = try seconds(body, default: 30, range: 0...86_400)
        if seconds == 0, [nil, .null, .string("")].contains(body["text"]) { return ("", 0) }
        guard let textValue = body["text"] else { throw .missingField("text") }
        guard case .string(let text) = textValue else { throw .wrongType("text", expected: "a string", got: textValue) }
        guard (1...500).contains(text.count) else { throw .invalidValue("text: must be 1 to 500 characters") }
        if let problem = DisplayText.text.problem(with: text) { throw .invalidValue("text: \(problem)") }
        return (text, seconds)
    }

    /// The optional `{"seconds": …}` of an identify request (`nil`: an empty body): 1 to 60, default 5.
    static func identifySeconds(_ body: JSONValue?) throws(APIError) -> Double {
        guard let body else { return 5 }
        try JSONBody.rejectUnknownFields(body, allowed: ["seconds"], prefix: "")
        return try seconds(body, default: 5, range: 1...60)
    }

    /// `{"entry": K}`: an index of the playlist's entries.
    static func entry(_ body: JSONValue, of playlist: PlaylistConfiguration) throws(APIError) -> Int {
        try JSONBody.rejectUnknownFields(body, allowed: ["entry"], prefix: "")
        guard let value = body["entry"] else { throw .missingField("entry") }
        guard case .number(let number) = value, let index = number.integer else {
            throw .wrongType("entry", expected: "an integer", got: value)
        }
        guard playlist.entries.indices.contains(index) else {
            throw .invalidValue(
                "entry: must be from 0 to \(playlist.entries.count - 1) (the playlist has \(playlist.entries.count) "
                    + "entries), got \(index)")
        }
        return index
    }

    private static func seconds(
        _ body: JSONValue, default value: Double, range: ClosedRange<Double>
    ) throws(APIError) -> Double {
        switch body["seconds"] {
        case nil, .null?: return value
        case .number(let number)?:
            guard number.double.isFinite, range.contains(number.double) else {
                throw .invalidValue(
                    "seconds: must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), "
                        + "got \(number.literal)")
            }
            return number.double
        case let other?:
            throw .wrongType("seconds", expected: "a number", got: other)
        }
    }
}
