import RollboardCore
import RollboardNet

extension HTTPRequest {
    /// The value of the cookie `name` in the request's `Cookie` headers (the first one), or `nil` when it has none.
    package func cookie(_ name: String) -> String? {
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, String(parts[0]).trimmingWhitespaceAndNewlines() == name else { continue }
                return String(parts[1]).trimmingWhitespaceAndNewlines()
            }
        }
        return nil
    }
}
