import RollboardAccess
import RollboardCore
import RollboardNet
import RollboardSources
import RollboardStore
import Synchronization

/// `POST /api/v1/tv/resume {"key","url"?}` (no other credential: the key is one): where a paired TV that was off,
/// disconnected or refused goes now, `200 {"url"}` (the page with its key), or `404 unknown_key` when the key was
/// revoked (the TV asks for a new code). The page is ``TVResume``'s; this node remembers the latest assignment of
/// each screen name it applied from the change log. Past ``Defaults/failedPerAddress`` unknown keys from an address in
/// a window, every resume from it is 429 `too_many_resumes` with `Retry-After` until the window ends (a TV then opens
/// the page it kept). See `docs/pairing.md`.
final class ResumeHandler: Sendable {
    enum Defaults {
        /// Unknown keys an address may present in a window of `window` seconds.
        static let (failedPerAddress, window) = (10, 60.0)
    }

    private let keys: ViewerKeys
    /// Per screen name, the page of the latest assignment applied on this node.
    private let assigned = Mutex<[String: String]>([:])
    private let failures = Mutex(
        AttemptWindows(
            perAddress: Defaults.failedPerAddress, overall: nil, window: Defaults.window,
            trackedAddresses: PairingCodes.Defaults.trackedAddresses))

    init(keys: ViewerKeys, store: any ChangeLog) {
        self.keys = keys
        store.subscribe { [weak self] change in
            guard case .screens(let command) = change, case .assign(let screen, let page) = command.action else {
                return
            }
            self?.assigned.withLock { $0[screen] = page }
        }
    }

    func resume(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let address = context.request.remoteAddress ?? "unknown"
        if let wait = failures.withLock({ $0.retryAfter(address, now: context.clock.monotonic.now()) }) {
            throw .tooMany("too_many_resumes", "too many unknown keys", retryAfter: wait)
        }
        let body = try JSONBody.object(context.request)
        try JSONBody.rejectUnknownFields(body, allowed: ["key", "url"], prefix: "")
        guard let keyValue = body["key"] else { throw .missingField("key") }
        guard case .string(let secret) = keyValue else { throw .wrongType("key", expected: "a string", got: keyValue) }
        var kept: String?
        switch body["url"] {
        case nil, .null?: break
        case .string(let url)?: kept = url
        case let other?: throw .wrongType("url", expected: "a string", got: other)
        }
        guard let key = keys.match(secret) else {
            failures.withLock { $0.count(address, now: context.clock.monotonic.now()) }
            throw .notFound("unknown_key", "key: no viewer key in force has this secret (revoked?); pair the TV again")
        }
        let resume = TVResume(key: key, configuration: context.configuration)
        guard let page = resume.page(assigned: assigned.withLock { $0[key.name] }, kept: kept) else {
            throw .notFound("no_page", "key: opens no configured dashboard or playlist as a whole; pair the TV again")
        }
        respond(
            PairingsHandler.noStore(
                .ok,
                .object([
                    JSONMember(
                        "url",
                        .string(page + (page.contains("?") ? "&" : "?") + "key=" + SourceFetch.percentEncoded(secret)))
                ])))
    }
}
