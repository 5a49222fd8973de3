/// Why a fetch brought no response. Each description is short enough for a tile and never holds the URL, a header or
/// a body (they may carry secrets).
public enum FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The whole transfer took longer than the request's `timeout`.
    case timedOut(seconds: Double)
    /// Fewer than the low-speed limit's bytes a second arrived for its seconds in a row.
    case tooSlow
    /// The body is larger than `maxBytes` (decoded).
    case tooLarge(limit: Int)
    case tooManyRedirects(limit: Int)
    /// The URL, or a redirect, names a scheme other than http and https.
    case refusedScheme
    /// The server's certificate is not trusted (or its name does not match).
    case untrustedCertificate
    case cannotResolve
    case cannotConnect
    /// A header name or value that could break the request (see ``FetchHeader/isWellFormed``).
    case malformedHeader
    /// Anything else libcurl reports, with its own short explanation.
    case transfer(String)

    public var description: String {
        switch self {
        case .timedOut(let seconds): "no answer within \(Self.seconds(seconds))"
        case .tooSlow: "upstream too slow"
        case .tooLarge(let limit): "answer larger than \(limit) bytes"
        case .tooManyRedirects(let limit): "more than \(limit) redirects"
        case .refusedScheme: "only http and https are followed"
        case .untrustedCertificate: "untrusted certificate"
        case .cannotResolve: "host not found"
        case .cannotConnect: "cannot connect"
        case .malformedHeader: "a header is malformed"
        case .transfer(let message): message
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
