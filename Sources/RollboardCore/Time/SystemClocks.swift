import Dispatch
import Foundation

/// Seconds since 1970-01-01 UTC.
package func wallClock() -> Double {
    Date().timeIntervalSince1970
}

/// Seconds on the system's monotonic clock.
package func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
