/// Why a fetch brought no response. Each description is short enough for a tile and never holds the URL, a header or
/// a body (they may carry secrets); a refused redirect names the host or address it pointed at, no more.
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
    /// The URL, or a redirect, names no host (`http://`) or cannot be read.
    case malformedURL
    /// A redirect to another host than the URL's, or from https to http, under ``FetchRedirects/sameHost`` (the
    /// host it named, cut to 100 characters).
    case redirectToOtherHost(String)
    /// A redirect from https to http, under ``FetchRedirects/sameHost``.
    case redirectDowngrade
    /// A redirect under ``FetchRedirects/none`` (its status).
    case redirectNotFollowed(status: Int)
    /// A redirect to a link-local or cloud metadata address (``ProtectedAddress``): the host or address, refused
    /// before any connection to it was opened.
    case protectedAddress(String)
    /// The caller's connection check (``HTTPFetcher/ConnectionCheck``) refused to open a socket to this address.
    case connectionRefusedByCheck(String)
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
        case .malformedURL: "the URL names no host"
        case .redirectToOtherHost(let host): "redirect to another host refused: \(host) (redirects: same-host)"
        case .redirectDowngrade: "redirect from https to http refused (redirects: same-host)"
        case .redirectNotFollowed(let status): "upstream redirected (HTTP \(status)); redirects: none"
        case .protectedAddress(let host): "redirect to a link-local or metadata address refused: \(host)"
        case .connectionRefusedByCheck(let address): "connection to \(address) refused by the caller's check"
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
