/// Why a request could not be parsed: the status to answer with and a precise, client-safe detail.
///
/// The connection answers with ``response`` and closes; the parser stays failed.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable name, e.g. `obsolete_line_folding`.
    public let identifier: String
    /// The status the response carries.
    public let status: HTTPStatus
    /// What exactly was wrong, for the JSON `detail`.
    public let detail: String

    private init(_ identifier: String, _ status: HTTPStatus, _ detail: String) {
        self.identifier = identifier
        self.status = status
        self.detail = detail
    }

    /// The JSON error response `{"error":…,"detail":…}` with `Connection: close`.
    public var response: HTTPResponse {
        var response = HTTPResponse.error(status, identifier, detail: detail)
        response.headers.replaceOrAdd(name: "Connection", value: "close")
        return response
    }

    public var description: String { "\(status.code) \(identifier): \(detail)" }

    public static func == (lhs: HTTPParseError, rhs: HTTPParseError) -> Bool {
        lhs.identifier == rhs.identifier
    }

    // MARK: 400 Bad Request

    /// The request line is not `method SP request-target SP HTTP-version`.
    public static let malformedRequestLine = HTTPParseError(
        "malformed_request_line", .badRequest,
        "the request line must be a method, a request target and an HTTP version separated by single spaces")
    /// The method contains a character that is not a token character.
    public static let invalidMethod = HTTPParseError(
        "invalid_method", .badRequest, "the method must be a token of letters, digits and !#$%&'*+-.^_`|~")
    /// The request target is not origin-form, absolute-form or `*` (with OPTIONS), or holds invalid bytes.
    public static let invalidTarget = HTTPParseError(
        "invalid_target", .badRequest,
        "the request target must be a path starting with '/', an absolute http(s) URI, or '*' with OPTIONS")
    /// The version is not of the form `HTTP/DIGIT.DIGIT`.
    public static let malformedVersion = HTTPParseError(
        "malformed_version", .badRequest, "the HTTP version must look like HTTP/1.1")
    /// A carriage return not followed by a line feed.
    public static let bareCarriageReturn = HTTPParseError(
        "bare_carriage_return", .badRequest, "a carriage return must be followed by a line feed")
    /// More empty lines before the request line than the request-line limit allows.
    public static let tooManyEmptyLines = HTTPParseError(
        "too_many_empty_lines", .badRequest, "too many empty lines before the request line")
    /// A field line starts with whitespace (obsolete line folding, RFC 9112 section 5.2).
    public static let obsoleteLineFolding = HTTPParseError(
        "obsolete_line_folding", .badRequest, "header fields must not be folded over several lines")
    /// Whitespace between a field name and its colon (RFC 9112 section 5.1).
    public static let whitespaceBeforeColon = HTTPParseError(
        "whitespace_before_colon", .badRequest, "no whitespace is allowed between a header field name and the colon")
    /// A field line without a colon.
    public static let missingColon = HTTPParseError(
        "missing_colon", .badRequest, "every header field line needs a colon after the field name")
    /// A field name that is empty or holds a non-token character.
    public static let invalidFieldName = HTTPParseError(
        "invalid_field_name", .badRequest, "a header field name must be a non-empty token")
    /// A field value holding a control character or bytes that are not UTF-8.
    public static let invalidFieldValue = HTTPParseError(
        "invalid_field_value", .badRequest, "a header field value must be UTF-8 text without control characters")
    /// An HTTP/1.1 request without `Host`.
    public static let missingHost = HTTPParseError(
        "missing_host", .badRequest, "an HTTP/1.1 request needs a Host header field")
    /// More than one `Host` field.
    public static let multipleHosts = HTTPParseError(
        "multiple_hosts", .badRequest, "a request must not carry more than one Host header field")
    /// A `Content-Length` that is not a non-negative decimal number that fits in 63 bits.
    public static let invalidContentLength = HTTPParseError(
        "invalid_content_length", .badRequest, "Content-Length must be a non-negative decimal number")
    /// Several `Content-Length` values that differ.
    public static let conflictingContentLength = HTTPParseError(
        "conflicting_content_length", .badRequest, "the request carries differing Content-Length values")

    // MARK: Limits

    /// The `Content-Length` exceeds ``HTTPParserLimits/maxBodyBytes``.
    public static let bodyTooLarge = HTTPParseError(
        "content_too_large", .contentTooLarge, "the request body is larger than this server accepts")

    /// ``bodyTooLarge`` naming the body's size, the limit and, when given, the setting that raises it.
    public static func bodyTooLarge(length: Int, limit: Int, setting: String?) -> HTTPParseError {
        let setting = setting.map { " (\($0))" } ?? ""
        return HTTPParseError(
            "content_too_large", .contentTooLarge,
            "the request body has \(length) bytes; this server accepts at most \(limit)\(setting)")
    }
    /// The request line exceeds ``HTTPParserLimits/maxRequestLineBytes``.
    public static let requestLineTooLong = HTTPParseError(
        "uri_too_long", .uriTooLong, "the request line is longer than this server accepts")
    /// The header field lines exceed ``HTTPParserLimits/maxHeaderBytes``.
    public static let headerSectionTooLarge = HTTPParseError(
        "header_section_too_large", .requestHeaderFieldsTooLarge,
        "the header section is larger than this server accepts")
    /// More header fields than ``HTTPParserLimits/maxHeaderCount``.
    public static let tooManyHeaderFields = HTTPParseError(
        "too_many_header_fields", .requestHeaderFieldsTooLarge,
        "the request has more header fields than this server accepts")

    // MARK: Unsupported

    /// `Transfer-Encoding: chunked`; request bodies here are small and must carry `Content-Length`.
    public static let chunkedNotSupported = HTTPParseError(
        "chunked_not_supported", .notImplemented,
        "chunked request bodies are not supported; send the body with Content-Length")
    /// Any other transfer coding.
    public static let transferCodingNotSupported = HTTPParseError(
        "transfer_coding_not_supported", .notImplemented,
        "transfer codings are not supported; send the body with Content-Length")
    /// A well-formed version other than HTTP/1.0 and HTTP/1.1.
    public static let versionNotSupported = HTTPParseError(
        "http_version_not_supported", .httpVersionNotSupported, "only HTTP/1.0 and HTTP/1.1 are supported")
}
