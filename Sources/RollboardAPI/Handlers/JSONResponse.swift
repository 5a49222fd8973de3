package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// The API's JSON answers.
enum JSONResponse {
    static func ok(_ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized)
    }

    /// 202: a change is durable and on its way to the screens.
    static func accepted(_ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: .accepted, contentType: "application/json", text: body.serialized)
    }

    /// The store's answer to a change: `body` of the stored change with 202, or 503 when the store refused it.
    static func accepted<Stored>(
        _ result: Result<Stored, StoreError>, _ body: (Stored) -> JSONValue
    ) -> HTTPResponse {
        switch result {
        case .success(let stored): accepted(body(stored))
        case .failure(let error): APIError.storeUnavailable(error).response
        }
    }
}
