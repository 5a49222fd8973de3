import Dispatch
package import RollboardConfig
import RollboardNet
package import RollboardSources

/// `POST /api/v1/admin/reload`: reads the configuration folder again and puts it in force, or refuses it whole.
struct ReloadHandler: Sendable {
    /// `nil`: the server was not started from a configuration folder (404).
    let reloader: ConfigurationReloader?

    func reload(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        guard let reloader else { throw .notFound("not_found", "this server was not started from a config folder") }
        DispatchQueue.global().async { respond(reloader.reload().response) }
    }
}
