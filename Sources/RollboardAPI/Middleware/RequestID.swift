package import RollboardConfig
package import RollboardCore
import Synchronization

/// Names each request for the logs and the `X-Request-Id` response header: the caller's own id when it is a sane
/// one (a proxy's), else this node's prefix and a counter.
final class RequestIDs: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        prefix = (try? SecureRandom.hex(4)) ?? "node"
    }

    /// `given` if it is 1 to 64 characters of letters, digits, `.`, `_` and `-`; else a new id.
    func id(given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            })
        {
            return given
        }
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(prefix)-\(number)"
    }
}
