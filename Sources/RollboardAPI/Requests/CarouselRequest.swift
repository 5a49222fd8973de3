package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The body of `POST /api/v1/carousels/{id}`: `{"action":"next"|"prev"}` or `{"action":"goto","page":K}`.
enum CarouselRequest {
    /// The action and its name as given; `pages` is how many slides the carousel shows (what `page` must be under).
    static func action(
        _ body: JSONValue, pages: () -> Int
    ) throws(APIError) -> (action: CarouselAction, name: String) {
        try JSONBody.rejectUnknownFields(body, allowed: ["action", "page"], prefix: "")
        guard let actionValue = body["action"] else { throw .missingField("action") }
        guard case .string(let name) = actionValue else {
            throw .wrongType("action", expected: "a string", got: actionValue)
        }
        let pageValue = body["page"]
        switch name {
        case "next", "prev":
            guard pageValue == nil else { throw .badRequest("page: only allowed with action \"goto\"") }
            return (name == "next" ? .next : .previous, name)
        case "goto":
            guard let pageValue else { throw .missingField("page") }
            guard case .number(let number) = pageValue, let page = number.integer else {
                throw .wrongType("page", expected: "an integer", got: pageValue)
            }
            let pages = pages()
            guard (0..<pages).contains(page) else {
                throw .invalidValue(
                    "page: must be between 0 and \(pages - 1) (the carousel has \(pages) slides), got \(page)")
            }
            return (.goto(page: page), name)
        default:
            throw .invalidValue("action: must be \"next\", \"prev\" or \"goto\", got \(JSONText.quoted(name))")
        }
    }
}
