/// Size limits the request parser enforces; a request over any of them fails with a precise error.
public struct HTTPParserLimits: Sendable, Equatable {
    /// The longest request line, without its line terminator (over it: 414).
    public var maxRequestLineBytes: Int
    /// The most bytes of header field lines, terminators included, excluding the request line and
    /// the empty line that ends the head (over it: 431).
    public var maxHeaderBytes: Int
    /// The most header field lines (over it: 431).
    public var maxHeaderCount: Int
    /// The largest `Content-Length` body accepted (over it: 413, decided before the body is read).
    public var maxBodyBytes: Int
    /// Where an operator raises ``maxBodyBytes`` (named in the 413's detail), e.g. `limits.maxBodyBytes in
    /// server.yaml`; nil when the limit is not a setting.
    public var maxBodyBytesSetting: String?
    /// Paths with a body limit of their own (a webhook's `maxBodyBytes`), by exact path (the target without its
    /// query): checked against the `Content-Length` before the body is read, as ``maxBodyBytes`` is for the rest.
    public var pathBodyLimits: [String: Int] = [:]
    /// Where an operator changes a path's own limit (named in the 413's detail).
    public var pathBodyLimitSetting: String?

    /// The body limit of requests for `path`, and the setting that raises it.
    func bodyLimit(forPath path: String) -> (bytes: Int, setting: String?) {
        if let own = pathBodyLimits[path] { return (own, pathBodyLimitSetting) }
        return (maxBodyBytes, maxBodyBytesSetting)
    }

    /// Limits with the given values; the defaults suit small JSON requests and browser page loads.
    public init(
        maxRequestLineBytes: Int = 8 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024,
        maxBodyBytesSetting: String? = nil
    ) {
        precondition(maxRequestLineBytes > 0 && maxHeaderBytes >= 0 && maxHeaderCount >= 0 && maxBodyBytes >= 0)
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxBodyBytesSetting = maxBodyBytesSetting
    }
}
