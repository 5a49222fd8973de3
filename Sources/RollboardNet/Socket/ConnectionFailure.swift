/// Why a `Connection` ended on its own, as its owner reads it in `connectionDidClose` (set only on failures; a
/// polite close by either side leaves none).
package enum ConnectionFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The TCP connect was refused or failed (an outbound connection only).
    case connectFailed(String)
    /// The connect or the TLS handshake did not finish before its deadline.
    case timedOut(String)
    /// The peer's certificate did not verify; the reason is OpenSSL's, e.g. `self-signed certificate`.
    case certificateRejected(String)
    /// The TLS handshake or a TLS record failed.
    case tlsFailed(String)
    /// Reading or writing the socket failed (reset, broken pipe), or the peer stopped reading.
    case ioFailed(String)

    package var message: String {
        switch self {
        case .connectFailed(let text), .timedOut(let text), .certificateRejected(let text), .tlsFailed(let text),
            .ioFailed(let text):
            text
        }
    }

    package var description: String { message }
}
