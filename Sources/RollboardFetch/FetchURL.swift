internal import CCurl

/// An `http` or `https` URL as libcurl's own URL parser reads it (the parser the transfer uses, so a check made on
/// it holds for the transfer): its scheme, host and port.
public struct FetchURL: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// Lower-cased; an IPv6 address in brackets, an IPv4 address in dotted-decimal form whatever the URL wrote.
    public let host: String
    /// The URL's port, or its scheme's default.
    public let port: Int

    /// `text` read, or why it cannot be fetched: ``FetchFailure/refusedScheme`` when it is not `http` or `https`,
    /// ``FetchFailure/malformedURL`` when it names no host or libcurl cannot read it.
    public init(_ text: String) throws(FetchFailure) {
        guard let handle = curl_url() else { throw .malformedURL }
        defer { curl_url_cleanup(handle) }
        let lowered = text.lowercased()
        let hasScheme = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        guard curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else {
            throw hasScheme || !text.contains("://") ? .malformedURL : .refusedScheme
        }
        guard let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https"
        else { throw .refusedScheme }
        guard let host = Self.part(handle, CURLUPART_HOST), !host.isEmpty,
            let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else { throw .malformedURL }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    /// Whether a request to `self` may carry headers meant for `origin`: the same host, and not `http` when the
    /// origin is `https` (that would send them in clear).
    public func sharesHeaders(with origin: FetchURL) -> Bool {
        host == origin.host && !(origin.scheme == "https" && scheme == "http")
    }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
