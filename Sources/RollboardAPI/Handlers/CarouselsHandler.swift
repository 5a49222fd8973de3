package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// `/api/v1/carousels/{id}` (next, previous, go to a slide) and `/api/v1/carousels/{id}/slides` (the slides a
/// producer feeds), answered `202` once durable.
struct CarouselsHandler: Sendable {
    let store: any ChangeLog

    func command(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let (action, name) = try CarouselRequest.action(try JSONBody.object(context.request)) {
            // The slides it shows: the producer's, when set, else the fewest any configured tile has.
            store.slides(id)?.slides.count ?? context.configuration.catalog.carouselPages(id) ?? 0
        }
        let respond = CommitDeadline.answer(context, respond)
        store.commandCarousel(id, action: action) { result in
            respond(
                JSONResponse.accepted(result) { command in
                    var members = [JSONMember("id", .string(id)), JSONMember("action", .string(name))]
                    if case .goto(let page) = action { members.append(JSONMember("page", .number(page))) }
                    members.append(JSONMember("seq", .number(command.seq)))
                    return .object(members)
                })
        }
    }

    func slides(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let slides = try ProducerTextRequest.slides(try JSONBody.object(context.request))
        let respond = CommitDeadline.answer(context, respond)
        store.setSlides(id, slides: slides) { result in
            respond(
                JSONResponse.accepted(result) { stored in
                    .object([
                        JSONMember("id", .string(stored.id)), JSONMember("slides", .number(stored.slides.count)),
                        JSONMember("seq", .number(stored.seq)),
                    ])
                })
        }
    }
}
