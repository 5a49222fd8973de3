/// Which redirects a fetch follows (a source's `redirects:`). Whatever the policy, the request's headers go only to
/// the host its URL names (never over `http` when that URL is `https`), and no redirect reaches a link-local or cloud
/// metadata address (``ProtectedAddress``).
public enum FetchRedirects: String, Sendable, Equatable, CaseIterable {
    /// Redirects to the URL's own host (any port), and from `http` to `https` but not back.
    case sameHost = "same-host"
    /// Redirects to any host; headers are still sent to the URL's own host only.
    case anyHost = "any-host"
    /// No redirect is followed: a redirect fails the fetch.
    case none
}
