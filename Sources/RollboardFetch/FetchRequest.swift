/// One outbound HTTP request as ``HTTPFetcher`` makes it: where, how, and the bounds that keep a hostile or broken
/// upstream from holding a fetch for long or filling memory.
public struct FetchRequest: Sendable, Equatable {
    /// What a bound is when the request leaves it out, written here only.
    public enum Defaults {
        public static let method = "GET"
        public static let timeout = 10.0
        /// The most bytes of (decoded) body kept; more aborts the transfer.
        public static let maxBytes = 1 << 20
        /// Redirects followed, each to http or https only.
        public static let maxRedirects = 5
        public static let redirects = FetchRedirects.sameHost
        /// A transfer slower than `lowSpeedBytesPerSecond` for `lowSpeedSeconds` in a row is ended.
        public static let lowSpeedBytesPerSecond = 16
        public static let lowSpeedSeconds = 3.0
    }

    /// An `http` or `https` URL.
    public var url: String
    /// `GET` or `POST` (any token is passed on as the request's method).
    public var method: String
    /// Sent as given, in order; names and values must not hold CR, LF or NUL.
    public var headers: [FetchHeader]
    /// The request body, sent with any method but `GET`.
    public var body: [UInt8]?
    /// Seconds for the whole transfer, connecting and every redirect included.
    public var timeout: Double
    public var maxBytes: Int
    /// A PEM file of certificates to trust instead of the system's.
    public var caFile: String?
    public var lowSpeedBytesPerSecond: Int
    public var lowSpeedSeconds: Double
    /// Which redirects are followed; headers go to the URL's host only, whichever.
    public var redirects: FetchRedirects
    /// libcurl's resolve list (`CURLOPT_RESOLVE`): `HOST:PORT:ADDRESS` entries that pin a name to an address without
    /// asking DNS (tests map names to loopback, and to link-local addresses they must never reach).
    public var resolve: [String]

    public init(
        url: String, method: String = Defaults.method, headers: [FetchHeader] = [], body: [UInt8]? = nil,
        timeout: Double = Defaults.timeout, maxBytes: Int = Defaults.maxBytes, caFile: String? = nil,
        lowSpeedBytesPerSecond: Int = Defaults.lowSpeedBytesPerSecond,
        lowSpeedSeconds: Double = Defaults.lowSpeedSeconds, redirects: FetchRedirects = Defaults.redirects,
        resolve: [String] = []
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.caFile = caFile
        self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
        self.lowSpeedSeconds = lowSpeedSeconds
        self.redirects = redirects
        self.resolve = resolve
    }
}
