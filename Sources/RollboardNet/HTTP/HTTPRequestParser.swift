/// An incremental HTTP/1.0 and HTTP/1.1 request parser: a pure state machine fed bytes by the connection.
///
/// Feed bytes as they arrive, split anywhere, then call ``next()`` until it returns `nil`; each call
/// returns one complete request, so pipelined requests come out one by one, in order. Every limit in
/// ``HTTPParserLimits`` is checked here, as early as the bytes allow. The first error is final: the
/// parser stays failed and ``next()`` keeps throwing it; the connection answers with
/// ``HTTPParseError/response`` and closes.
///
/// Choices:
/// - Line terminators are CRLF; a bare LF is accepted too (RFC 9112 section 2.2 allows it), a bare CR is
///   rejected with 400. Empty lines before a request line are skipped, up to the request-line limit.
/// - Bodies need `Content-Length`; any `Transfer-Encoding` is refused with 501, since request bodies
///   here are small JSON documents.
/// - Absolute-form targets (`http://host/path`) are rewritten to origin-form, and a `Host` field is
///   replaced by the target's authority (RFC 9112 section 3.2.2); `*` is accepted for OPTIONS only.
/// - After a request that does not keep the connection alive (`Connection: close`, or HTTP/1.0
///   without `keep-alive`), later bytes are ignored (RFC 9112 section 9.6).
public struct HTTPRequestParser: Sendable {
    /// The limits this parser enforces.
    public let limits: HTTPParserLimits

    /// Bytes received and not yet returned as part of a request; `start` is the first of them.
    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.head
    /// Progress through the current request head; absolute indices into `buffer`.
    private var scan = HeadScan()

    private enum State: Sendable {
        /// Reading a request head; `scan` holds the progress.
        case head
        /// The head is parsed; waiting for `length` body bytes.
        case body(HTTPRequest, length: Int)
        /// A request ended the connection; nothing more is parsed.
        case closed
        case failed(HTTPParseError)
    }

    private struct HeadScan: Sendable {
        /// Empty-line bytes skipped before this request line.
        var skippedEmptyBytes = 0
        /// Whether the request line has begun (leading empty lines are behind).
        var started = false
        /// The next byte to look at for a line feed.
        var scanIndex = 0
        var lineStart = 0
        /// The request line's content, once its line feed arrived.
        var requestLine: Range<Int>?
        /// Where the field lines begin: just after the request line's line feed.
        var fieldsStart = 0
        /// Each field line's content, without its terminator.
        var fieldLines: [Range<Int>] = []
    }

    /// A parser with the given limits.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Appends received bytes; parse them with ``next()``.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        switch state {
        case .head, .body: buffer.append(contentsOf: bytes)
        case .closed, .failed: break
        }
    }

    /// The next complete request, `nil` when more bytes are needed (or the connection is done),
    /// or the error that makes the stream unusable.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        switch state {
        case .failed(let error):
            throw error
        case .closed:
            return nil
        case .body(let request, let length):
            return completeBody(of: request, length: length)
        case .head:
            do throws(HTTPParseError) {
                guard let (request, length) = try parseNextHead() else { return nil }
                state = .body(request, length: length)
                return completeBody(of: request, length: length)
            } catch {
                state = .failed(error)
                buffer = []
                start = 0
                throw error
            }
        }
    }

    /// Whether bytes of an unfinished request are buffered: the connection's cue for the slow-head timeout.
    public var hasPartialRequest: Bool {
        switch state {
        case .head: buffer.count > start
        case .body: true
        case .closed, .failed: false
        }
    }

    /// How many received bytes are buffered and not yet returned in a request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Hands over every buffered byte that is not part of a returned request — after an upgrade
    /// request, the first bytes of the new protocol — and leaves the parser with an empty buffer.
    public mutating func takeRemainingBytes() -> [UInt8] {
        let remaining = Array(buffer[start...])
        buffer = []
        start = 0
        scan = HeadScan()
        if case .body = state { state = .head }
        return remaining
    }

    // MARK: Body

    private mutating func completeBody(of head: HTTPRequest, length: Int) -> HTTPRequest? {
        guard buffer.count - start >= length else { return nil }
        var request = head
        request.body = Array(buffer[start..<start + length])
        start += length
        if request.keepAlive {
            state = .head
            compact()
        } else {
            state = .closed
            buffer = []
            start = 0
        }
        return request
    }

    /// Drops consumed bytes once they are worth moving, keeping byte-at-a-time feeding linear.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
            start = 0
        } else if start >= 4096 && start * 2 >= buffer.count {
            buffer.removeSubrange(..<start)
            start = 0
        }
    }

    // MARK: Head

    /// Scans the new bytes for the end of the head; once it is there, parses the head and consumes it.
    private mutating func parseNextHead() throws(HTTPParseError) -> (HTTPRequest, Int)? {
        if !scan.started {
            guard try skipEmptyLines() else { return nil }
        }
        var index = scan.scanIndex
        while index < buffer.count {
            let byte = buffer[index]
            index += 1
            guard byte == ASCII.lf else { continue }
            var contentEnd = index - 1
            if contentEnd > scan.lineStart && buffer[contentEnd - 1] == ASCII.cr { contentEnd -= 1 }
            let line = scan.lineStart..<contentEnd
            scan.lineStart = index
            if scan.requestLine == nil {
                if line.count > limits.maxRequestLineBytes { throw .requestLineTooLong }
                scan.requestLine = line
                scan.fieldsStart = index
            } else if line.isEmpty {
                let head = try parseHead(requestLine: scan.requestLine!, fieldLines: scan.fieldLines)
                start = index
                scan = HeadScan()
                compact()
                return head
            } else {
                if index - scan.fieldsStart > limits.maxHeaderBytes { throw .headerSectionTooLarge }
                if scan.fieldLines.count >= limits.maxHeaderCount { throw .tooManyHeaderFields }
                scan.fieldLines.append(line)
            }
        }
        scan.scanIndex = index
        try checkUnfinishedLine(endingAt: index)
        return nil
    }

    /// Skips empty lines before a request line; `false` while only empty-line bytes (or a lone CR) are there.
    private mutating func skipEmptyLines() throws(HTTPParseError) -> Bool {
        while start < buffer.count {
            let skipped: Int
            if buffer[start] == ASCII.lf {
                skipped = 1
            } else if buffer[start] == ASCII.cr {
                guard start + 1 < buffer.count else { return false }
                guard buffer[start + 1] == ASCII.lf else { throw .bareCarriageReturn }
                skipped = 2
            } else {
                break
            }
            start += skipped
            scan.skippedEmptyBytes += skipped
            if scan.skippedEmptyBytes > limits.maxRequestLineBytes { throw .tooManyEmptyLines }
        }
        guard start < buffer.count else {
            compact()
            return false
        }
        scan.started = true
        scan.scanIndex = start
        scan.lineStart = start
        return true
    }

    /// Fails as soon as the line still waiting for its line feed is certain to break a limit.
    private func checkUnfinishedLine(endingAt end: Int) throws(HTTPParseError) {
        let pending = end - scan.lineStart
        guard pending > 0 else { return }
        let endsInCR = buffer[end - 1] == ASCII.cr
        if scan.requestLine == nil {
            if pending - (endsInCR ? 1 : 0) > limits.maxRequestLineBytes { throw .requestLineTooLong }
        } else if !(pending == 1 && endsInCR) {
            // A field line is still coming: its line feed is at least one more byte.
            if end + 1 - scan.fieldsStart > limits.maxHeaderBytes { throw .headerSectionTooLarge }
        }
    }

    /// Builds the request (without body) and its body length from the head's lines.
    private func parseHead(requestLine: Range<Int>, fieldLines: [Range<Int>]) throws(HTTPParseError)
        -> (HTTPRequest, Int)
    {
        var request = try parseRequestLine(buffer[requestLine])
        var authority: String?
        if let absolute = Self.splitAbsoluteForm(request.target) {
            request.target = absolute.originForm
            authority = absolute.authority
        }
        for line in fieldLines {
            let (name, value) = try Self.parseFieldLine(buffer[line])
            request.headers.add(name: name, value: value)
        }
        let hosts = request.headers.values(for: "Host").count
        if hosts == 0 && request.version == .http11 { throw .missingHost }
        if hosts > 1 { throw .multipleHosts }
        if let authority, hosts == 1 { request.headers.replaceOrAdd(name: "Host", value: authority) }
        if request.headers.contains("Transfer-Encoding") {
            if request.headers.containsToken("chunked", in: "Transfer-Encoding") { throw .chunkedNotSupported }
            throw .transferCodingNotSupported
        }
        let length = try Self.contentLength(of: request.headers)
        // Only a server with per-path limits (webhooks) works out each request's path for it.
        let limit =
            limits.pathBodyLimits.isEmpty
            ? (bytes: limits.maxBodyBytes, setting: limits.maxBodyBytesSetting)
            : limits.bodyLimit(forPath: request.path)
        if length > limit.bytes { throw .bodyTooLarge(length: length, limit: limit.bytes, setting: limit.setting) }
        return (request, length)
    }

    private func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest {
        if line.contains(ASCII.cr) { throw .bareCarriageReturn }
        guard let firstSpace = line.firstIndex(of: ASCII.space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: ASCII.space)
        else { throw .malformedRequestLine }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard !method.isEmpty, !target.isEmpty, !version.isEmpty, !version.contains(ASCII.space) else {
            throw .malformedRequestLine
        }
        let parsedVersion = try Self.parseVersion(version)
        guard method.allSatisfy(ASCII.isTokenCharacter) else { throw .invalidMethod }
        guard target.allSatisfy({ $0 > ASCII.space && $0 < 0x7F }) else { throw .invalidTarget }
        let methodText = String(decoding: method, as: UTF8.self)
        let targetText = String(decoding: target, as: UTF8.self)
        switch target.first {
        case UInt8(ascii: "/"):
            break
        case UInt8(ascii: "*"):
            guard target.count == 1, methodText == "OPTIONS" else { throw .invalidTarget }
        default:
            guard Self.splitAbsoluteForm(targetText) != nil else { throw .invalidTarget }
        }
        return HTTPRequest(method: methodText, target: targetText, version: parsedVersion)
    }

    private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let text = Array(bytes)
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), text[6] == UInt8(ascii: "."),
            ASCII.isDigit(text[5]), ASCII.isDigit(text[7])
        else { throw .malformedVersion }
        let version = HTTPVersion(major: Int(text[5] - UInt8(ascii: "0")), minor: Int(text[7] - UInt8(ascii: "0")))
        guard version == .http11 || version == .http10 else { throw .versionNotSupported }
        return version
    }

    /// The authority and origin-form of an `http://` or `https://` target, `nil` for anything else.
    private static func splitAbsoluteForm(_ target: String) -> (authority: String, originForm: String)? {
        let utf8 = target.utf8
        let schemeLength: Int
        if utf8.starts(with: "http://".utf8, by: { asciiLowercased($0) == $1 }) {
            schemeLength = 7
        } else if utf8.starts(with: "https://".utf8, by: { asciiLowercased($0) == $1 }) {
            schemeLength = 8
        } else {
            return nil
        }
        let rest = utf8.dropFirst(schemeLength)
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
        let remainder = String(Substring(rest[authorityEnd...]))
        let originForm = remainder.hasPrefix("/") ? remainder : "/" + remainder
        return (String(Substring(authority)), originForm)
    }

    private static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        if line.first == ASCII.space || line.first == ASCII.tab { throw .obsoleteLineFolding }
        if line.contains(ASCII.cr) { throw .bareCarriageReturn }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .missingColon }
        let name = line[..<colon]
        if let last = name.last, last == ASCII.space || last == ASCII.tab { throw .whitespaceBeforeColon }
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenCharacter) else { throw .invalidFieldName }
        var value = line[(colon + 1)...]
        while let first = value.first, first == ASCII.space || first == ASCII.tab { value.removeFirst() }
        while let last = value.last, last == ASCII.space || last == ASCII.tab { value.removeLast() }
        guard value.allSatisfy({ ($0 >= ASCII.space && $0 != 0x7F) || $0 == ASCII.tab }),
            let text = String(validating: value, as: UTF8.self)
        else { throw .invalidFieldValue }
        return (String(decoding: name, as: UTF8.self), text)
    }

    /// The body length from `Content-Length` (0 without one); repeated equal values count as one.
    private static func contentLength(of headers: HTTPHeaders) throws(HTTPParseError) -> Int {
        var length: Int?
        for field in headers.values(for: "Content-Length") {
            for element in field.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = element.trimmingWhitespace().utf8
                guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else { throw .invalidContentLength }
                var value = 0
                for digit in digits {
                    let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflowB) = shifted.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                    if overflowA || overflowB { throw .invalidContentLength }
                    value = sum
                }
                if let length, length != value { throw .conflictingContentLength }
                length = value
            }
        }
        return length ?? 0
    }
}

/// The bytes and character classes HTTP/1.1 syntax is made of.
enum ASCII {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `tchar` of RFC 9110 section 5.6.2.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
