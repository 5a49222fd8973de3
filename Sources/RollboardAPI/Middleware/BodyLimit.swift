package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// A JSON body within the configuration's `limits.maxBodyBytes`: a media type other than `application/json` is 415,
/// a larger body 413. Put last before the handler, after every check that must answer first.
struct BodyLimit: Middleware {
    /// Whether an empty body passes unchecked (its fields are all optional).
    var allowsEmpty = false

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let request = context.request
        if !(allowsEmpty && request.body.isEmpty) {
            let contentType = request.headers["Content-Type"]
            let mediaType = contentType?.split(separator: ";", maxSplits: 1).first.map {
                String($0).trimmingWhitespaceAndNewlines().lowercased()
            }
            guard mediaType == "application/json" else { throw .unsupportedMediaType(contentType) }
            let limit = context.configuration.server.limits.maxBodyBytes
            guard request.body.count <= limit else { throw .bodyTooLarge(request.body.count, limit: limit) }
        }
        next(context, respond)
    }
}
