/// libFuzzer entry for `HTTPRequestParser`, compiled together with the HTTP sources by `Fuzz/run-http-parser.sh`.
///
/// Input layout: the first byte picks the limits (high bit: tiny limits that every input can reach) and
/// seeds the chunk sizes; the rest is the byte stream a client sends. Each input is parsed whole, in
/// pseudo-random chunks and (when short) byte by byte; the three must agree exactly, and every request
/// that comes out must respect the limits and the grammar. Any disagreement or violation traps.

private let tinyLimits = HTTPParserLimits(
    maxRequestLineBytes: 48, maxHeaderBytes: 96, maxHeaderCount: 4, maxBodyBytes: 16)

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    var hasPartialRequest = false
    var bufferedByteCount = 0
}

/// SplitMix64: a small deterministic generator for chunk sizes.
private struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private func parse(_ bytes: [UInt8], limits: HTTPParserLimits, chunkSize: () -> Int) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    var offset = 0
    feeding: while offset < bytes.count {
        let end = min(bytes.count, offset + chunkSize())
        parser.feed(bytes[offset..<end])
        offset = end
        do {
            while let request = try parser.next() {
                check(request, limits: limits)
                outcome.requests.append(request)
            }
        } catch {
            outcome.error = error
            precondition((try? parser.next()) == nil, "a failed parser must keep failing")
            precondition(!error.response.serialized(date: HTTPDate(secondsSince1970: 0), keepAlive: false).isEmpty)
            break feeding
        }
    }
    outcome.hasPartialRequest = parser.hasPartialRequest
    outcome.bufferedByteCount = parser.bufferedByteCount
    return outcome
}

private func check(_ request: HTTPRequest, limits: HTTPParserLimits) {
    precondition(request.body.count <= limits.maxBodyBytes, "body over the limit")
    precondition(request.headers.count <= limits.maxHeaderCount, "too many header fields")
    precondition(request.method.utf8.count + request.target.utf8.count + 10 <= limits.maxRequestLineBytes)
    let headerBytes = request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 3 }
    precondition(headerBytes <= limits.maxHeaderBytes + limits.maxRequestLineBytes, "header section over the limit")
    precondition(request.version == .http11 || request.version == .http10, "unsupported version returned")
    precondition(!request.method.isEmpty && request.method.utf8.allSatisfy(ASCII.isTokenCharacter))
    precondition(request.target.hasPrefix("/") || (request.target == "*" && request.method == "OPTIONS"))
    precondition(request.version == .http10 || request.headers.values(for: "Host").count == 1, "Host rule broken")
    precondition(!request.headers.contains("Transfer-Encoding"), "transfer coding accepted")
    for (name, value) in request.headers {
        precondition(!name.isEmpty && name.utf8.allSatisfy(ASCII.isTokenCharacter), "bad field name")
        precondition(!value.utf8.contains(ASCII.cr) && !value.utf8.contains(ASCII.lf), "line break in a value")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let control = input[0]
    let bytes = Array(input.dropFirst())
    let limits = control & 0x80 != 0 ? tinyLimits : HTTPParserLimits()

    let whole = parse(bytes, limits: limits) { bytes.count }
    var random = SplitMix(state: UInt64(control) &* 0x1234_5678_9ABC_DEF1 ^ UInt64(bytes.count))
    let maximumChunk = Int(control & 0x0F) + 1
    let chunked = parse(bytes, limits: limits) { 1 + Int(random.next() % UInt64(maximumChunk)) }
    precondition(chunked == whole, "chunked parse differs from whole parse")
    if bytes.count <= 4096 {
        let byteByByte = parse(bytes, limits: limits) { 1 }
        precondition(byteByByte == whole, "byte-by-byte parse differs from whole parse")
    }
    return 0
}
