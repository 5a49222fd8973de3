internal import CCurl
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Outbound HTTP(S) through libcurl, for sources that pull data: certificates verified (the system's store or the
/// request's `caFile`), the proxy the environment names (`HTTPS_PROXY`, `HTTP_PROXY` as `http_proxy`, `NO_PROXY`:
/// libcurl reads them, and nothing here sets a proxy), at most ``FetchRequest/Defaults/maxRedirects`` redirects and
/// only to http or https, the request's timeout, body cap and low-speed limit, and any content coding libcurl decodes
/// (gzip, deflate, brotli where built in).
///
/// A fetch blocks a thread for its transfer, so it runs on the fetcher's own serial queue, never on a hub's or a
/// connection's; give each independent caller its own fetcher so a slow upstream holds up only its own fetches.
public final class HTTPFetcher: Sendable {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Fetches `request` on the fetcher's queue; `completion` runs there.
    public func fetch(
        _ request: FetchRequest, completion: @escaping @Sendable (Result<FetchResponse, FetchFailure>) -> Void
    ) {
        queue.async { completion(Self.perform(request)) }
    }

    /// Asked with each address libcurl is about to open a socket to (as text: `127.0.0.1`, `::1`), after the
    /// protected-address check; `false` refuses it. For tests, which record every connection and refuse all but
    /// loopback, so a regression can never reach a real address.
    public typealias ConnectionCheck = @Sendable (String) -> Bool

    /// Fetches `request` on the calling thread, blocking it for the transfer (for a command-line tool; a server
    /// calls ``fetch(_:completion:)``).
    ///
    /// Redirects are followed here, one transfer per hop with libcurl's own following off, so each hop is judged
    /// before it starts: its scheme (http or https), the request's ``FetchRedirects`` policy, and no link-local or
    /// metadata address (``ProtectedAddress``), in its URL or in any address the hop connects to. The request's
    /// headers are sent only to hops on the URL's own host (``FetchURL/sharesHeaders(with:)``). 301, 302 and 303
    /// turn a `POST` into a `GET` without its body (as libcurl and browsers do); 307 and 308 keep both.
    public static func perform(_ request: FetchRequest, connecting check: ConnectionCheck? = nil)
        -> Result<FetchResponse, FetchFailure>
    {
        guard request.headers.allSatisfy(\.isWellFormed) else { return .failure(.malformedHeader) }
        let origin: FetchURL
        do { origin = try FetchURL(request.url) } catch { return .failure(error) }
        _ = globalInitialization
        let clock = ContinuousClock()
        let started = clock.now
        var hop = Hop(url: request.url, target: origin, method: request.method, body: request.body)
        for number in 0...FetchRequest.Defaults.maxRedirects {
            let elapsed = clock.now - started
            let remaining =
                request.timeout - Double(elapsed.components.seconds) - Double(elapsed.components.attoseconds) / 1e18
            guard remaining > 0 else { return .failure(.timedOut(seconds: request.timeout)) }
            let answer = transfer(
                hop, of: request, headers: hop.target.sharesHeaders(with: origin) ? request.headers : [],
                timeout: remaining, guarded: number > 0, check: check)
            let response: HopResponse
            switch answer {
            case .failure(let failure): return .failure(failure)
            case .success(let success): response = success
            }
            guard Self.redirectStatuses.contains(response.status), let location = response.location else {
                return .success(
                    FetchResponse(status: response.status, body: response.body, contentType: response.contentType))
            }
            if request.redirects == .none { return .failure(.redirectNotFollowed(status: response.status)) }
            guard number < FetchRequest.Defaults.maxRedirects else { break }
            let next: FetchURL
            do { next = try FetchURL(location) } catch { return .failure(error) }
            if ProtectedAddress.contains(host: next.host) { return .failure(.protectedAddress(next.host)) }
            if request.redirects == .sameHost, !next.sharesHeaders(with: origin) {
                return .failure(
                    next.host == origin.host ? .redirectDowngrade : .redirectToOtherHost(String(next.host.prefix(100))))
            }
            let becomesGet = response.status == 303 || (response.status <= 302 && hop.method == "POST")
            hop = Hop(
                url: location, target: next, method: becomesGet ? "GET" : hop.method,
                body: becomesGet ? nil : hop.body)
        }
        return .failure(.tooManyRedirects(limit: FetchRequest.Defaults.maxRedirects))
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// One request of a fetch: the URL's or a redirect's.
    struct Hop {
        var url: String
        var target: FetchURL
        var method: String
        var body: [UInt8]?
    }

    /// What one hop answered; `location` is the redirect's absolute URL, when the answer has one.
    struct HopResponse {
        var status: Int
        var body: [UInt8]
        var contentType: String?
        var location: String?
    }

    /// One transfer with libcurl's following off. `guarded` (a redirect's hop): every address it connects to is
    /// checked against ``ProtectedAddress`` before the socket is opened.
    private static func transfer(
        _ hop: Hop, of request: FetchRequest, headers: [FetchHeader], timeout: Double, guarded: Bool,
        check: ConnectionCheck?
    ) -> Result<HopResponse, FetchFailure> {
        guard let handle = curl_easy_init() else { return .failure(.transfer("libcurl could not start a transfer")) }
        defer { curl_easy_cleanup(handle) }

        let sink = ResponseSink(limit: request.maxBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let gate = ConnectionGate(refusesProtected: guarded, check: check)
        let gateContext = Unmanaged.passRetained(gate)
        defer { gateContext.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for header in headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }
        for entry in request.resolve { resolveList = curl_slist_append(resolveList, entry) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code = errorBuffer.withUnsafeMutableBufferPointer { errors -> CURLcode in
            let timeoutMilliseconds = max(1, Int(timeout * 1000))
            CCurl_setopt_string(handle, CURLOPT_URL, hop.url)
            CCurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            // Redirects are followed by perform(_:connecting:), hop by hop, never by libcurl.
            CCurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            CCurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
            CCurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds)
            CCurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, request.lowSpeedBytesPerSecond)
            CCurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.lowSpeedSeconds.rounded(.up))))
            CCurl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
            // "" offers every coding this libcurl decodes, and decodes the answer.
            CCurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
            CCurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
            CCurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
            if let caFile = request.caFile { CCurl_setopt_string(handle, CURLOPT_CAINFO, caFile) }
            if resolveList != nil { CCurl_setopt_pointer(handle, CURLOPT_RESOLVE, resolveList) }
            // Threads: libcurl must not use signals (its default resolver's timeout would).
            CCurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            CCurl_setopt_string(handle, CURLOPT_USERAGENT, "rollboard")
            CCurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            CCurl_setopt_opensocket(handle, openSocket)
            CCurl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, gateContext.toOpaque())
            if hop.method != "GET" {
                CCurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, hop.method)
            }
            CCurl_setopt_write(handle, writeBody)
            CCurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
            CCurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            guard let body = hop.body, hop.method != "GET" else { return curl_easy_perform(handle) }
            return body.withUnsafeBufferPointer { bytes in
                CCurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                CCurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return curl_easy_perform(handle)
            }
        }
        if let refusal = gate.refusal { return .failure(refusal) }
        guard code == CURLE_OK else {
            let message = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(Self.failure(code, message: message, request: request, overflowed: sink.overflowed))
        }
        var status = 0
        CCurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var contentType: UnsafeMutablePointer<CChar>?
        CCurl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
        var location: UnsafeMutablePointer<CChar>?
        CCurl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        return .success(
            HopResponse(
                status: status, body: sink.bytes, contentType: contentType.map { String(cString: $0) },
                location: location.map { String(cString: $0) }))
    }

    /// libcurl's code as a ``FetchFailure``.
    static func failure(_ code: CURLcode, message: String, request: FetchRequest, overflowed: Bool)
        -> FetchFailure
    {
        if overflowed { return .tooLarge(limit: request.maxBytes) }
        switch code {
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limit: request.maxBytes)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl reports its low-speed limit with the timeout's code; its message tells them apart.
            return message.contains("too slow") ? .tooSlow : .timedOut(seconds: request.timeout)
        case CURLE_TOO_MANY_REDIRECTS: return .tooManyRedirects(limit: FetchRequest.Defaults.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .refusedScheme
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return .untrustedCertificate
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotResolve
        case CURLE_COULDNT_CONNECT: return .cannotConnect
        default:
            return .transfer(String(cString: curl_easy_strerror(code)))
        }
    }

    /// `curl_global_init`, once per process, before the first transfer.
    private static let globalInitialization: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()
}

/// Where one transfer may connect, asked by libcurl before each socket it opens; on the transfer's thread only.
final class ConnectionGate {
    let refusesProtected: Bool
    let check: HTTPFetcher.ConnectionCheck?
    /// Why a socket was refused, if one was.
    var refusal: FetchFailure?

    init(refusesProtected: Bool, check: HTTPFetcher.ConnectionCheck?) {
        self.refusesProtected = refusesProtected
        self.check = check
    }
}

/// libcurl's open-socket callback: refuses a protected address on a redirect's hop, then asks the caller's check,
/// and only then opens the socket.
private func openSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    let gate = Unmanaged<ConnectionGate>.fromOpaque(context).takeUnretainedValue()
    let family = address.pointee.family
    let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
    var bytes: [UInt8] = []
    if family == AF_INET {
        let peer = raw.loadUnaligned(as: sockaddr_in.self)
        bytes = withUnsafeBytes(of: peer.sin_addr) { Array($0) }
    } else if family == AF_INET6 {
        let peer = raw.loadUnaligned(as: sockaddr_in6.self)
        bytes = withUnsafeBytes(of: peer.sin6_addr) { Array($0) }
    }
    let text = addressText(bytes)
    if gate.refusesProtected, ProtectedAddress.contains(bytes: bytes) {
        gate.refusal = .protectedAddress(text)
        return CURL_SOCKET_BAD
    }
    if let check = gate.check, !check(text) {
        gate.refusal = .connectionRefusedByCheck(text)
        return CURL_SOCKET_BAD
    }
    return socket(family, address.pointee.socktype, address.pointee.protocol)
}

/// An address in network order as text (`inet_ntop`).
private func addressText(_ bytes: [UInt8]) -> String {
    guard bytes.count == 4 || bytes.count == 16 else { return "an address of an unknown family" }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    let family = bytes.count == 4 ? AF_INET : AF_INET6
    let written = bytes.withUnsafeBytes { source in
        inet_ntop(family, source.baseAddress, &text, socklen_t(text.count))
    }
    return written == nil ? "an unreadable address" : String(cString: text)
}

/// libcurl's write callback: appends to the request's ``ResponseSink`` until its limit, then aborts the transfer by
/// taking fewer bytes than offered.
private func writeBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return sink.append(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
