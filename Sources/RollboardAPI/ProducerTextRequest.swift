package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The bodies of producer-fed text, checked field by field: a carousel's slides
/// (`POST /api/v1/carousels/{id}/slides`) and a text tile's message (`POST /api/v1/texts/{id}`). Every refusal names
/// the field's path, as the rest of the API does.
enum ProducerTextRequest {
    /// The most slides a carousel takes.
    static let maximumSlides = 50
    /// The most characters of an image URL.
    static let maximumURLLength = 2048

    /// `{"slides":[{"text":…,"color":…} or {"image":…,"alt":…,"color":…},…]}`: 1 to 50 slides, each exactly one of
    /// a text (``DisplayText/text``) or an image (an `http(s)` or `data:image/` URL of at most 2048 characters, with an
    /// optional `alt`, a text too), and an optional `#rgb`/`#rrggbb` colour.
    static func slides(_ body: JSONValue) throws(APIError) -> [ProducerSlide] {
        try JSONBody.rejectUnknownFields(body, allowed: ["slides"], prefix: "")
        guard let list = body["slides"] else { throw .missingField("slides") }
        guard case .array(let items) = list else { throw .wrongType("slides", expected: "an array", got: list) }
        guard (1...maximumSlides).contains(items.count) else {
            throw .invalidValue("slides: must hold 1 to \(maximumSlides) slides, got \(items.count)")
        }
        var slides: [ProducerSlide] = []
        for (index, item) in items.enumerated() {
            slides.append(try slide(item, field: "slides[\(index)]"))
        }
        return slides
    }

    /// `{"text":…,"color":…}`: a text (``DisplayText/text``; empty clears the tile) and an optional colour.
    static func text(_ body: JSONValue) throws(APIError) -> (text: String, color: String?) {
        try JSONBody.rejectUnknownFields(body, allowed: ["text", "color"], prefix: "")
        guard let value = body["text"] else { throw .missingField("text") }
        guard case .string(let text) = value else { throw .wrongType("text", expected: "a string", got: value) }
        if let problem = DisplayText.text.problem(with: text, allowsEmpty: true) { throw .invalidValue("text: \(problem)") }
        return (text, try color(body["color"], field: "color"))
    }

    private static func slide(_ item: JSONValue, field: String) throws(APIError) -> ProducerSlide {
        guard case .object = item else { throw .wrongType(field, expected: "an object", got: item) }
        try JSONBody.rejectUnknownFields(item, allowed: ["text", "image", "alt", "color"], prefix: field + ".")
        let color = try color(item["color"], field: field + ".color")
        switch (item["text"], item["image"]) {
        case (let value?, nil):
            if item["alt"] != nil { throw .badRequest("\(field).alt: only allowed with image") }
            guard case .string(let text) = value else { throw .wrongType(field + ".text", expected: "a string", got: value) }
            if let problem = DisplayText.text.problem(with: text) { throw .invalidValue("\(field).text: \(problem)") }
            return .text(text, color: color)
        case (nil, let value?):
            guard case .string(let url) = value else {
                throw .wrongType(field + ".image", expected: "a string", got: value)
            }
            guard url.utf8.count <= maximumURLLength else {
                throw .invalidValue(
                    "\(field).image: must be at most \(maximumURLLength) characters, got \(url.utf8.count)")
            }
            guard isImageURL(url) else {
                throw .invalidValue(
                    "\(field).image: must be an http(s) URL or a data:image URL, got \(JSONText.quoted(excerpt(url)))")
            }
            var alt: String?
            switch item["alt"] {
            case nil, .null?: break
            case .string(let text)?:
                if let problem = DisplayText.text.problem(with: text, allowsEmpty: true) {
                    throw .invalidValue("\(field).alt: \(problem)")
                }
                alt = text.isEmpty ? nil : text
            case let other?:
                throw .wrongType(field + ".alt", expected: "a string", got: other)
            }
            return .image(url, alt: alt, color: color)
        case (.some, .some):
            throw .badRequest("\(field): give text or image, not both")
        case (nil, nil):
            throw .missingField("\(field).text or image")
        }
    }

    /// An optional `#rgb`/`#rrggbb` colour (`null` or absent: none).
    private static func color(_ value: JSONValue?, field: String) throws(APIError) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let color)?:
            guard CarouselOptions.isColor(color) else {
                throw .invalidValue("\(field): must be a colour like #rgb or #rrggbb, got \(JSONText.quoted(excerpt(color)))")
            }
            return color
        case let other?:
            throw .wrongType(field, expected: "a colour like #rgb or #rrggbb", got: other)
        }
    }

    /// Whether `url` is an `http://` or `https://` URL with a host, or a `data:image/…,…` URL: printable ASCII, no
    /// spaces (anything else percent-encoded).
    static func isImageURL(_ url: String) -> Bool {
        guard url.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && !"\"<>\\`".unicodeScalars.contains($0) })
        else { return false }
        let lowered = url.lowercased()
        for scheme in ["https://", "http://"] where lowered.hasPrefix(scheme) {
            let host = lowered.dropFirst(scheme.count).prefix { !"/?#".contains($0) }
            return !host.isEmpty && !host.hasPrefix("@") && !host.hasPrefix(":")
        }
        guard lowered.hasPrefix("data:image/"), let comma = lowered.firstIndex(of: ",") else { return false }
        let type = lowered[lowered.index(lowered.startIndex, offsetBy: "data:image/".count)..<comma]
            .prefix { $0 != ";" }
        return !type.isEmpty && type.allSatisfy { $0.isLetter || $0.isNumber || ".+-".contains($0) }
    }

    /// At most 60 characters of `text`, for quoting it back.
    private static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(60)) + "…"
    }
}
