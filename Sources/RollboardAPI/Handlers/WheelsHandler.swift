package import RollboardAccess
package import RollboardConfig
package import RollboardHub
import RollboardNet
package import RollboardStore

/// `/api/v1/wheels/{id}`: a wheel's target, read and set.
struct WheelsHandler: Sendable {
    let store: any ChangeLog

    func get(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        let wheel = store.wheel(id).map { ValueJSON.wheel($0) }
        respond(JSONResponse.ok(wheel ?? ValueJSON.unset(id, ["seq", "updatedAt"])))
    }

    func post(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let target = try WheelRequest.target(
            try JSONBody.object(context.request), id: id, catalog: context.configuration.catalog)
        let respond = CommitDeadline.answer(context, respond)
        store.setWheel(id, target: target) { result in
            respond(JSONResponse.accepted(result) { ValueJSON.wheel($0, withTime: false) })
        }
    }
}
