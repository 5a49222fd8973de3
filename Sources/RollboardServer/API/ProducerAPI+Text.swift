import RollboardNet

/// Producer-fed text: a carousel's slides (`POST /api/v1/carousels/{id}/slides`) and a text tile's message
/// (`POST` and `GET /api/v1/texts/{id}`). Both are stored like values, and answered `202` once durable.
extension ProducerAPI {
    /// The slides a carousel `id` shows: the producer's, when set, else the fewest any configured tile has.
    func carouselPages(_ id: String) -> Int {
        store.slides(id)?.slides.count ?? configuration.catalog.carouselPages(id) ?? 0
    }

    func postSlides(
        _ id: String,
        _ request: HTTPRequest,
        respond: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        try authorizeWrite(id, .carousel, request)
        let slides = try ProducerTextRequest.slides(try parseBody(request))
        let respond = answeredWithin(configuration.server.limits.commitTimeout, respond)
        store.setSlides(id, slides: slides) { result in
            switch result {
            case .success(let stored):
                respond(
                    Self.accepted(
                        .object([
                            JSONMember("id", .string(stored.id)), JSONMember("slides", .number(stored.slides.count)),
                            JSONMember("seq", .number(stored.seq)),
                        ])))
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    func postText(
        _ id: String,
        _ request: HTTPRequest,
        respond: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        try authorizeWrite(id, .text, request)
        let message = try ProducerTextRequest.text(try parseBody(request))
        let respond = answeredWithin(configuration.server.limits.commitTimeout, respond)
        store.setText(id, text: message.text, color: message.color) { result in
            switch result {
            case .success(let stored):
                guard case .object(var members) = Self.json(stored, id: id) else {
                    preconditionFailure("text JSON is an object")
                }
                members.removeLast()
                respond(Self.accepted(.object(members)))
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    /// `{"id","text","color","seq","updatedAt"}`; all but `id` are `null` until a producer sets the text.
    func getText(_ id: String) -> HTTPResponse {
        HTTPResponse(status: .ok, contentType: "application/json", text: Self.json(store.text(id), id: id).serialized)
    }

    static func json(_ text: StoredText?, id: String) -> JSONValue {
        .object([
            JSONMember("id", .string(id)),
            JSONMember("text", .optional(text.map { .string($0.text) })),
            JSONMember("color", .optional(text?.color.map(JSONValue.string))),
            JSONMember("seq", .optional(text.map { .number($0.seq) })),
            JSONMember("updatedAt", .optional(text.map { .string(iso8601($0.updatedAt)) })),
        ])
    }
}
