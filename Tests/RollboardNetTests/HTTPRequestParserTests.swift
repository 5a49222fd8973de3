import Testing

@testable import RollboardNet

/// Feeds `chunks` one by one, draining the parser after each, and returns what came out.
private func parse(
    _ chunks: [[UInt8]], limits: HTTPParserLimits = HTTPParserLimits()
) -> (requests: [HTTPRequest], error: HTTPParseError?) {
    var parser = HTTPRequestParser(limits: limits)
    var requests: [HTTPRequest] = []
    for chunk in chunks {
        parser.feed(chunk)
        do {
            while let request = try parser.next() { requests.append(request) }
        } catch {
            return (requests, error)
        }
    }
    return (requests, nil)
}

private func parse(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> (
    requests: [HTTPRequest], error: HTTPParseError?
) {
    parse([Array(text.utf8)], limits: limits)
}

/// `bytes` cut into pieces of `size` bytes.
private func chunks(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
}

private let small = HTTPParserLimits(maxRequestLineBytes: 32, maxHeaderBytes: 64, maxHeaderCount: 3, maxBodyBytes: 10)

/// A request line `GET /aaa… HTTP/1.1` exactly `length` bytes long.
private func requestLine(length: Int) -> String {
    "GET /" + String(repeating: "a", count: length - 14) + " HTTP/1.1"
}

/// Header field lines exactly `length` bytes long (terminators included): a Host and one filler field.
private func fieldLines(length: Int) -> String {
    "Host: h\r\n" + "X: " + String(repeating: "b", count: length - 14) + "\r\n"
}

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    @Test("a simple GET parses into method, target, version and headers")
    func parsesSimpleGet() throws {
        let result = parse("GET /api/v1/metrics?x=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        #expect(result.error == nil)
        let request = try #require(result.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/api/v1/metrics?x=1")
        #expect(request.version == .http11)
        #expect(request.headers == ["Host": "example.com", "Accept": "*/*"])
        #expect(request.body.isEmpty)
    }

    @Test("a Content-Length body is read exactly, and field values lose surrounding whitespace")
    func readsContentLengthBody() throws {
        let result = parse("POST /m HTTP/1.1\r\nHost: h\r\nContent-Length:  5 \t\r\nX-Empty:\r\n\r\nhello")
        let request = try #require(result.requests.first)
        #expect(request.body == Array("hello".utf8))
        #expect(request.headers["Content-Length"] == "5")
        #expect(request.headers["X-Empty"] == "")
    }

    @Test("repeated equal Content-Length values count as one")
    func acceptsRepeatedEqualContentLength() throws {
        let result = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok")
        #expect(result.error == nil)
        #expect(result.requests.first?.body == Array("ok".utf8))
    }

    static let malformed: [(String, HTTPParseError)] = [
        ("GARBAGE\r\n\r\n", .malformedRequestLine),
        ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET /\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", .malformedRequestLine),
        (" GET / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1\r\nHost: h\r\n\r\n", .malformedVersion),
        ("GET / http/1.1\r\nHost: h\r\n\r\n", .malformedVersion),
        ("GET / HTTP/1.1x\r\nHost: h\r\n\r\n", .malformedVersion),
        ("GET / HTTP/1.x\r\nHost: h\r\n\r\n", .malformedVersion),
        ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .invalidMethod),
        ("GET foo HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET * HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET /a\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET /é HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET http://user@h/ HTTP/1.1\r\nHost: h\r\n\r\n", .invalidTarget),
        ("GET / HTTP/1.1\rHost: h\r\n\r\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", .bareCarriageReturn),
        ("\rGET / HTTP/1.1\r\nHost: h\r\n\r\n", .bareCarriageReturn),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: 1\r\n  folded\r\n\r\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\r\n\tHost: h\r\n\r\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", .whitespaceBeforeColon),
        ("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .missingColon),
        ("GET / HTTP/1.1\r\nHost: h\r\n: empty\r\n\r\n", .invalidFieldName),
        ("GET / HTTP/1.1\r\nHost: h\r\nX(y): 1\r\n\r\n", .invalidFieldName),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{01}b\r\n\r\n", .invalidFieldValue),
        ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{00}b\r\n\r\n", .invalidFieldValue),
        ("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .missingHost),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .multipleHosts),
        ("GET / HTTP/1.0\r\nHost: a\r\nhost: a\r\n\r\n", .multipleHosts),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1,\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n", .invalidContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", .conflictingContentLength),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 6\r\n\r\n", .conflictingContentLength),
    ]

    @Test("malformed requests fail with 400 and the precise reason", arguments: malformed)
    func rejectsMalformedRequests(text: String, expected: HTTPParseError) {
        let result = parse(text)
        #expect(result.requests.isEmpty)
        #expect(result.error == expected)
        #expect(result.error?.status == .badRequest)
    }

    @Test("field values must be UTF-8: valid text is kept, other bytes are refused with 400")
    func requiresUTF8FieldValues() {
        let head = Array("GET / HTTP/1.1\r\nHost: h\r\nX-Name: ".utf8)
        let valid = parse([head + Array("Zoë ✓\r\n\r\n".utf8)])
        #expect(valid.requests.first?.headers["X-Name"] == "Zoë ✓")
        let invalid = parse([head + [0x5A, 0xDE, 0xDE, 0x0D, 0x0A, 0x0D, 0x0A]])
        #expect(invalid.error == .invalidFieldValue)
    }

    static let unsupported: [(String, HTTPParseError, HTTPStatus)] = [
        ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .versionNotSupported, .httpVersionNotSupported),
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .versionNotSupported, .httpVersionNotSupported),
        ("GET / HTTP/0.9\r\n\r\n", .versionNotSupported, .httpVersionNotSupported),
        ("GET / HTTP/1.2\r\nHost: h\r\n\r\n", .versionNotSupported, .httpVersionNotSupported),
        (
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", .chunkedNotSupported,
            .notImplemented
        ),
        (
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n", .chunkedNotSupported,
            .notImplemented
        ),
        (
            "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
            .chunkedNotSupported, .notImplemented
        ),
        (
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", .transferCodingNotSupported,
            .notImplemented
        ),
        ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n", .bodyTooLarge, .contentTooLarge),
    ]

    @Test(
        "unsupported versions, transfer codings and oversized bodies fail with 505, 501 and 413",
        arguments: unsupported)
    func rejectsUnsupportedRequests(text: String, expected: HTTPParseError, status: HTTPStatus) {
        let result = parse(text)
        #expect(result.requests.isEmpty)
        #expect(result.error == expected)
        #expect(result.error?.status == status)
    }

    static let boundaries: [(String, String, HTTPParseError?)] = [
        ("request line at the limit", requestLine(length: 32) + "\r\nHost: h\r\n\r\n", nil),
        ("request line one past the limit", requestLine(length: 33) + "\r\nHost: h\r\n\r\n", .requestLineTooLong),
        ("request line one past the limit, head unfinished", requestLine(length: 33), .requestLineTooLong),
        ("header section at the limit", "GET / HTTP/1.1\r\n" + fieldLines(length: 64) + "\r\n", nil),
        (
            "header section one past the limit", "GET / HTTP/1.1\r\n" + fieldLines(length: 65) + "\r\n",
            .headerSectionTooLarge
        ),
        (
            "header section past the limit, head unfinished",
            "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 60), .headerSectionTooLarge
        ),
        ("header count at the limit", "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n\r\n", nil),
        (
            "header count one past the limit", "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n",
            .tooManyHeaderFields
        ),
        ("body at the limit", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", nil),
        (
            "body one past the limit, before any body byte", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n",
            .bodyTooLarge
        ),
        (
            "empty lines before the request line at the limit",
            String(repeating: "\r\n", count: 16) + "GET / HTTP/1.1\r\nHost: h\r\n\r\n", nil
        ),
        (
            "empty lines before the request line one past the limit",
            String(repeating: "\r\n", count: 16) + "\n", .tooManyEmptyLines
        ),
    ]

    @Test(
        "limits hold at exactly the boundary and fail one past it, fed whole or byte by byte",
        arguments: boundaries)
    func enforcesLimitsAtTheBoundary(name: String, text: String, expected: HTTPParseError?) {
        let bytes = Array(text.utf8)
        for split in [bytes.count, 1] {
            let result = parse(chunks(bytes, size: split), limits: small)
            #expect(result.error == expected, "\(name), chunks of \(split)")
            #expect(result.requests.count == (expected == nil ? 1 : 0), "\(name), chunks of \(split)")
        }
    }

    @Test("a body over the limit is refused naming its size, the limit and the setting that raises it")
    func namesTheBodyLimitAndItsSetting() {
        var limits = small
        limits.maxBodyBytesSetting = "limits.maxBodyBytes in server.yaml"
        let error = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 70000\r\n\r\n", limits: limits).error
        #expect(error == .bodyTooLarge)
        #expect(error?.detail == "the request body has 70000 bytes; this server accepts at most 10 "
            + "(limits.maxBodyBytes in server.yaml)")
        let bare = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: small).error
        #expect(bare?.detail == "the request body has 11 bytes; this server accepts at most 10")
    }

    @Test("a path with a body limit of its own (a webhook) is held to it, before the body is read; others to the server's")
    func pathBodyLimits() {
        var limits = small
        limits.pathBodyLimits["/hooks/big"] = 20
        limits.pathBodyLimitSetting = "maxBodyBytes in config/webhooks/big.yaml"
        #expect(parse("POST /hooks/big?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 20\r\n\r\n", limits: limits).error == nil)
        let over = parse("POST /hooks/big HTTP/1.1\r\nHost: h\r\nContent-Length: 21\r\n\r\n", limits: limits).error
        #expect(over?.detail == "the request body has 21 bytes; this server accepts at most 20 "
            + "(maxBodyBytes in config/webhooks/big.yaml)")
        #expect(parse("POST /hooks/other HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: limits).error == .bodyTooLarge)
    }

    @Test("the default limits allow an 8 KiB request line and refuse one byte more with 414")
    func enforcesDefaultRequestLineLimit() {
        #expect(parse(requestLine(length: 8192) + "\r\nHost: h\r\n\r\n").error == nil)
        #expect(parse(requestLine(length: 8193) + "\r\nHost: h\r\n\r\n").error == .requestLineTooLong)
        #expect(parse(requestLine(length: 8193)).error?.status == .uriTooLong)
    }

    @Test("the default limits are 8 KiB, 16 KiB, 100 fields and 1 MiB")
    func hasSaneDefaults() {
        let limits = HTTPParserLimits()
        #expect(limits.maxRequestLineBytes == 8192)
        #expect(limits.maxHeaderBytes == 16384)
        #expect(limits.maxHeaderCount == 100)
        #expect(limits.maxBodyBytes == 1_048_576)
    }

    @Test("the default limits refuse a 101st header field and an oversized header section with 431")
    func enforcesDefaultHeaderLimits() {
        let hundred = (1...99).map { "X-\($0): v\r\n" }.joined()
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n" + hundred + "\r\n").error == nil)
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\n" + hundred + "Y: 1\r\n\r\n").error == .tooManyHeaderFields)
        let big = "GET / HTTP/1.1\r\n" + fieldLines(length: 16385) + "\r\n"
        #expect(parse(big).error == .headerSectionTooLarge)
        #expect(parse(big).error?.status == .requestHeaderFieldsTooLarge)
    }

    static let streams: [String] = [
        "GET / HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /api/v1/metrics/revenue HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n{\"value\": 1234.5}",
        "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
            + "GET /c HTTP/1.1\r\nHost: h\r\n\r\n",
        "\r\n\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n\r\nGET /2 HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.1\nHost: h\n\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX: 1\r\n  folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nokGET / HTTP/2.0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
        requestLine(length: 40) + "\r\n\r\n",
        "GET / HTTP/1.1\r\n" + fieldLines(length: 70) + "\r\n",
    ]

    @Test("feeding byte by byte, or in any chunk size, gives what one chunk gives", arguments: streams)
    func chunkingDoesNotMatter(text: String) {
        let bytes = Array(text.utf8)
        let whole = parse([bytes], limits: small)
        for size in 1...7 {
            let split = parse(chunks(bytes, size: size), limits: small)
            #expect(split.requests == whole.requests, "chunks of \(size)")
            #expect(split.error == whole.error, "chunks of \(size)")
        }
    }

    @Test("pipelined requests in one chunk come out one by one, in order")
    func parsesPipelinedRequests() throws {
        var parser = HTTPRequestParser()
        parser.feed(Array(Self.streams[2].utf8))
        let first = try #require(try parser.next())
        let second = try #require(try parser.next())
        let third = try #require(try parser.next())
        #expect([first.target, second.target, third.target] == ["/a", "/b", "/c"])
        #expect(second.body == Array("abc".utf8))
        #expect(try parser.next() == nil)
        #expect(!parser.hasPartialRequest)
        #expect(parser.bufferedByteCount == 0)
    }

    static let keepAlive: [(String, Bool)] = [
        ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, Close\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
    ]

    @Test(
        "a request that ends the connection is the last one parsed; others let the next one through",
        arguments: keepAlive)
    func followsKeepAliveSemantics(text: String, keepsAlive: Bool) throws {
        var parser = HTTPRequestParser()
        parser.feed(Array((text + "GET /next HTTP/1.1\r\nHost: h\r\n\r\n").utf8))
        let first = try #require(try parser.next())
        #expect(first.keepAlive == keepsAlive)
        let second = try parser.next()
        #expect((second?.target == "/next") == keepsAlive)
        if !keepsAlive {
            parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
            #expect(try parser.next() == nil)
            #expect(!parser.hasPartialRequest)
        }
    }

    @Test("a partial request is reported while its head or body is incomplete")
    func reportsPartialRequests() throws {
        var parser = HTTPRequestParser()
        #expect(!parser.hasPartialRequest)
        parser.feed(Array("POST / HTTP/1.1\r\nHo".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.hasPartialRequest)
        parser.feed(Array("st: h\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.hasPartialRequest)
        parser.feed(Array("cd".utf8))
        #expect(try parser.next()?.body == Array("abcd".utf8))
        #expect(!parser.hasPartialRequest)
    }

    @Test("the bytes after an upgrade request are handed over untouched")
    func handsOverBytesAfterUpgrade() throws {
        var parser = HTTPRequestParser()
        let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        let head = "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        parser.feed(Array(head.utf8) + frame)
        #expect(try parser.next()?.target == "/ws")
        #expect(parser.takeRemainingBytes() == frame)
        #expect(parser.bufferedByteCount == 0)
        #expect(!parser.hasPartialRequest)
    }

    @Test("after an error the parser stays failed, whatever is fed next")
    func staysFailed() {
        var parser = HTTPRequestParser()
        parser.feed(Array("GET / HTTP/3.0\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.versionNotSupported) { try parser.next() }
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(throws: HTTPParseError.versionNotSupported) { try parser.next() }
        #expect(!parser.hasPartialRequest)
    }

    @Test("an absolute-form target becomes origin-form and its authority the Host")
    func normalizesAbsoluteForm() throws {
        let result = parse("GET HTTP://Example.com:8443?x=1 HTTP/1.1\r\nHost: other\r\n\r\n")
        let request = try #require(result.requests.first)
        #expect(request.target == "/?x=1")
        #expect(request.headers["Host"] == "Example.com:8443")
    }

    @Test("OPTIONS * is accepted, and so are unknown method tokens")
    func acceptsAsteriskFormAndExtensionMethods() {
        let result = parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\nPURGE /x HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(result.error == nil)
        #expect(result.requests.map(\.method) == ["OPTIONS", "PURGE"])
        #expect(result.requests.map(\.target) == ["*", "/x"])
    }

    @Test("a large body fed byte by byte arrives intact")
    func readsLargeBodyByteByByte() throws {
        let body = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var parser = HTTPRequestParser()
        parser.feed(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.count)\r\n\r\n".utf8))
        var early = 0
        for byte in body.dropLast() {
            parser.feed(CollectionOfOne(byte))
            if try parser.next() != nil { early += 1 }
        }
        #expect(early == 0)
        parser.feed(CollectionOfOne(body.last!))
        #expect(try parser.next()?.body == body)
    }
}
