import Foundation

/// One write to the producer API: the path it posts to and its JSON body.
struct PushRequest {
    /// The request target, e.g. `/api/v1/wheels/status`.
    let target: String
    /// The JSON body, as sent.
    let body: [UInt8]
    /// The `Idempotency-Key` header, sent when given.
    var idempotencyKey: String?

    /// A post to `/api/v1/{collection}`, or to `/api/v1/{collection}/{id}` with `id` percent-encoded.
    init(collection: String, id: String? = nil, body: [UInt8]) {
        var target = "/api/v1/\(collection)"
        if let id {
            target += "/" + (id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id)
        }
        self.target = target
        self.body = body
    }

    /// `text` as a JSON number when it is a finite number, else `nil`: as written when it is a JSON number already
    /// (so the server sees, and quotes back, the literal given), else in Swift's spelling (`.5` → `0.5`, `+3` → `3.0`).
    static func number(_ text: String) -> String? {
        guard let value = Double(text), value.isFinite else { return nil }
        return text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil ? text : "\(value)"
    }
}
