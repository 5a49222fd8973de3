/// A message a screen sends to the server (wire protocol version 2; unchanged since version 1).
enum ClientMessage: Equatable {
    /// `{"type":"fps","value":15}`: the screen's wanted frame rate.
    case fps(Int)
    /// `{"type":"pause"}`: the page is hidden.
    case pause
    /// `{"type":"resume"}`: the page is shown again.
    case resume
    /// `{"type":"carousel","id":…,"action":…,"page":K}`: the viewer acts on their own carousel.
    case carousel(tileID: String, action: CarouselViewerAction, page: Int?)
    /// A well-formed message of a type this server does not know (kept for forward compatibility).
    case ignored

    /// Why a client message was refused.
    struct ParseError: Error, Equatable {
        let detail: String
    }

    /// Parses one text message.
    static func parse(_ text: String) -> Result<ClientMessage, ParseError> {
        guard let object = try? JSONParser.parse(Array(text.utf8)), case .object = object else {
            return .failure(ParseError(detail: "message is not a JSON object"))
        }
        guard case .string(let type)? = object["type"] else {
            return .failure(ParseError(detail: "message has no string \"type\""))
        }
        switch type {
        case "fps":
            guard let value = wholeNumber(object["value"]), (1...60).contains(value) else {
                return .failure(ParseError(detail: "fps: \"value\" must be a whole number from 1 to 60"))
            }
            return .success(.fps(value))
        case "pause":
            return .success(.pause)
        case "resume":
            return .success(.resume)
        case "carousel":
            guard case .string(let id)? = object["id"] else {
                return .failure(ParseError(detail: "carousel: \"id\" must be a tile id"))
            }
            guard case .string(let name)? = object["action"], let action = CarouselViewerAction(rawValue: name) else {
                return .failure(ParseError(detail: "carousel: \"action\" must be hold, release, next, prev or goto"))
            }
            var page: Int?
            if action == .goto {
                guard let value = wholeNumber(object["page"]), value >= 0 else {
                    return .failure(ParseError(detail: "carousel: goto needs a whole, non-negative \"page\""))
                }
                page = value
            }
            return .success(.carousel(tileID: id, action: action, page: page))
        default:
            return .success(.ignored)
        }
    }

    /// A JSON number that is a whole `Int`, or `nil` for anything else (booleans and strings included).
    private static func wholeNumber(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return number.integer
    }
}
