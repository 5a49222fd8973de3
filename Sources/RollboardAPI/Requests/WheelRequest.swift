package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The body of `POST /api/v1/wheels/{id}`: exactly one of `progress` (0 to 1), `index` (one of the wheel's
/// positions) or `label` (one of its labels, turned into its index).
enum WheelRequest {
    static func target(_ body: JSONValue, id: String, catalog: MetricCatalog) throws(APIError) -> WheelTarget {
        try JSONBody.rejectUnknownFields(body, allowed: ["progress", "index", "label"], prefix: "")
        var body = body
        let given = ["progress", "index", "label"].filter { body[$0] != nil }
        guard given.count <= 1 else {
            throw .badRequest("give one of progress, index or label, not \(given.joined(separator: " and "))")
        }
        if let label = body["label"] {
            let contents = catalog.wheelContents(id) ?? []
            guard case .string(let name) = label else { throw .wrongType("label", expected: "a string", got: label) }
            guard let index = contents.firstIndex(of: name) else {
                throw .invalidValue(
                    "label: \(JSONText.quoted(name)) is not one of the wheel's labels "
                        + "(\(contents.map(JSONText.quoted).joined(separator: ", ")))")
            }
            body = .object([JSONMember("index", .number(JSONNumber(literal: String(index))))])
        }
        switch (body["progress"], body["index"]) {
        case (let progress?, nil):
            guard case .number(let number) = progress else {
                throw .wrongType("progress", expected: "a number", got: progress)
            }
            let value = number.double
            guard value.isFinite, (0...1).contains(value) else {
                throw .invalidValue("progress: must be between 0 and 1, got \(number.literal)")
            }
            return .progress(value)
        case (nil, let index?):
            let positions = catalog.wheelPositions(id) ?? 0
            guard case .number(let number) = index, let value = number.integer else {
                throw .wrongType("index", expected: "an integer", got: index)
            }
            guard (0..<positions).contains(value) else {
                throw .invalidValue(
                    "index: must be between 0 and \(positions - 1) (the wheel has \(positions) labels), got \(value)"
                )
            }
            return .index(value)
        case (.some, .some):
            throw .badRequest("give one of progress, index or label")
        case (nil, nil):
            throw .missingField("progress, index or label")
        }
    }
}
