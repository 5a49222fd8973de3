package import RollboardConfig
import RollboardNet
package import RollboardStore

/// `/api/v1/texts/{id}`: a text tile's message, read and set (answered `202` once durable).
struct TextsHandler: Sendable {
    let store: any ChangeLog

    func get(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        respond(JSONResponse.ok(ValueJSON.text(store.text(id), id: id)))
    }

    func post(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let message = try ProducerTextRequest.text(try JSONBody.object(context.request))
        let respond = CommitDeadline.answer(context, respond)
        store.setText(id, text: message.text, color: message.color) { result in
            respond(JSONResponse.accepted(result) { ValueJSON.text($0, id: id, withTime: false) })
        }
    }
}
