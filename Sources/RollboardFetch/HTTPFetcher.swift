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

    /// Fetches `request` on the calling thread, blocking it for the transfer (for a command-line tool; a server
    /// calls ``fetch(_:completion:)``).
    public static func perform(_ request: FetchRequest) -> Result<FetchResponse, FetchFailure> {
        guard request.headers.allSatisfy(\.isWellFormed) else { return .failure(.malformedHeader) }
        _ = globalInitialization
        guard let handle = curl_easy_init() else { return .failure(.transfer("libcurl could not start a transfer")) }
        defer { curl_easy_cleanup(handle) }

        let sink = ResponseSink(limit: request.maxBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for header in request.headers {
            headerList = curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code = errorBuffer.withUnsafeMutableBufferPointer { errors -> CURLcode in
            let timeoutMilliseconds = max(1, Int(request.timeout * 1000))
            CCurl_setopt_string(handle, CURLOPT_URL, request.url)
            CCurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            CCurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            CCurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            CCurl_setopt_long(handle, CURLOPT_MAXREDIRS, FetchRequest.Defaults.maxRedirects)
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
            // Threads: libcurl must not use signals (its default resolver's timeout would).
            CCurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            CCurl_setopt_string(handle, CURLOPT_USERAGENT, "rollboard")
            CCurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            if request.method != "GET" {
                CCurl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
            }
            CCurl_setopt_write(handle, writeBody)
            CCurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
            CCurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            guard let body = request.body, request.method != "GET" else { return curl_easy_perform(handle) }
            return body.withUnsafeBufferPointer { bytes in
                CCurl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                CCurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                return curl_easy_perform(handle)
            }
        }
        guard code == CURLE_OK else {
            let message = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(Self.failure(code, message: message, request: request, overflowed: sink.overflowed))
        }
        var status = 0
        CCurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var contentType: UnsafeMutablePointer<CChar>?
        CCurl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
        return .success(FetchResponse(status: status, body: sink.bytes, contentType: contentType.map { String(cString: $0) }))
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
