package import RollboardCore
package import RollboardStore

/// A message a screen sends to the server (wire protocol version 2; `report` added within it: an older server ignores
/// it as a type it does not know).
package enum ClientMessage: Equatable {
    /// `{"type":"fps","value":15}`: the screen's wanted frame rate.
    case fps(Int)
    /// `{"type":"pause"}`: the page is hidden.
    case pause
    /// `{"type":"resume"}`: the page is shown again.
    case resume
    /// `{"type":"carousel","id":…,"action":…,"page":K}`: the viewer acts on their own carousel.
    case carousel(tileID: String, action: CarouselViewerAction, page: Int?)
    /// `{"type":"report","fps":12.5,"paintMs":3.2}` or `{"type":"report","error":"…"}`: how the screen keeps up, or
    /// why it could not start; shown in the list of screens.
    case report(Report)
    /// A well-formed message of a type this server does not know (kept for forward compatibility).
    case ignored

    /// What a screen says of itself: the frames it painted per second and what painting one cost it, or the first
    /// script error it met. A report carries at least one of them.
    package struct Report: Equatable, Sendable {
        /// Frames painted per second, over the screen's last few seconds (0 to the top of the fps range).
        var paintedFPS: Double?
        /// Milliseconds of main-thread work per painted frame (0…10,000).
        var paintMilliseconds: Double?
        /// The first script error, as the page words it (at most ``errorLimit`` characters are kept).
        var scriptError: String?
        /// A text tile whose message does not fit at the legible minimum (`{"type":"report","unreadable":"notice"}`):
        /// the page shows it cut, and the server logs it.
        package var unreadableTile: String?

        /// Longest script error kept, in characters.
        static let errorLimit = 300
        /// Longest tile id kept from an `unreadable` report, in characters.
        static let tileLimit = 100
    }

    /// Why a client message was refused.
    package struct ParseError: Error, Equatable {
        let detail: String
    }

    /// Parses one text message.
    package static func parse(_ text: String) -> Result<ClientMessage, ParseError> {
        guard let object = try? JSONParser.parse(Array(text.utf8)), case .object = object else {
            return .failure(ParseError(detail: "message is not a JSON object"))
        }
        guard case .string(let type)? = object["type"] else {
            return .failure(ParseError(detail: "message has no string \"type\""))
        }
        switch type {
        case "fps":
            let rates = FrameRates.range
            guard let value = wholeNumber(object["value"]), rates.contains(value) else {
                let detail = "fps: \"value\" must be a whole number from \(rates.lowerBound) to \(rates.upperBound)"
                return .failure(ParseError(detail: detail))
            }
            return .success(.fps(value))
        case "pause":
            return .success(.pause)
        case "resume":
            return .success(.resume)
        case "report":
            return report(object)
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

    /// A `report`: each member optional but not all absent; a number out of its range, or of another JSON type, refuses
    /// it.
    private static func report(_ object: JSONValue) -> Result<ClientMessage, ParseError> {
        var report = Report()
        if let value = object["fps"] {
            let highest = Double(FrameRates.range.upperBound)
            guard let fps = finiteNumber(value), (0...highest).contains(fps) else {
                return .failure(ParseError(detail: "report: \"fps\" must be a number from 0 to \(Int(highest))"))
            }
            report.paintedFPS = fps
        }
        if let value = object["paintMs"] {
            guard let milliseconds = finiteNumber(value), (0...10_000).contains(milliseconds) else {
                return .failure(ParseError(detail: "report: \"paintMs\" must be a number from 0 to 10000"))
            }
            report.paintMilliseconds = milliseconds
        }
        if let value = object["error"] {
            guard case .string(let text) = value, let cleaned = text.visibleText(limit: Report.errorLimit)
            else {
                return .failure(ParseError(detail: "report: \"error\" must be a non-empty string"))
            }
            report.scriptError = cleaned
        }
        if let value = object["unreadable"] {
            guard case .string(let text) = value, let tile = text.visibleText(limit: Report.tileLimit) else {
                return .failure(ParseError(detail: "report: \"unreadable\" must be a tile id"))
            }
            report.unreadableTile = tile
        }
        guard report != Report() else {
            return .failure(ParseError(detail: "report: needs \"fps\", \"paintMs\", \"error\" or \"unreadable\""))
        }
        return .success(.report(report))
    }

    /// A finite JSON number as a `Double`, or `nil` for anything else.
    private static func finiteNumber(_ value: JSONValue) -> Double? {
        guard case .number(let number) = value else { return nil }
        let double = number.double
        return double.isFinite ? double : nil
    }

    /// A JSON number that is a whole `Int`, or `nil` for anything else (booleans and strings included).
    private static func wholeNumber(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return number.integer
    }
}
