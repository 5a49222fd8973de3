package import RollboardConfig
package import RollboardCore
import RollboardNet

extension HTTPRequest {
    /// The token of an `Authorization: Bearer TOKEN` header, or `nil` when there is no such header.
    package var bearerToken: String? {
        guard let header = headers["Authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingWhitespaceAndNewlines()
    }
}
