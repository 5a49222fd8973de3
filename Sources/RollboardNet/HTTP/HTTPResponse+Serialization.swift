extension HTTPResponse {
    /// Whether this status forbids a body and a `Content-Length` (1xx, 204, 304; RFC 9110 sections 8.6, 15).
    var hasNoContent: Bool {
        (100..<200).contains(status.code) || status == .noContent || status == .notModified
    }

    /// The response as HTTP/1.1 bytes, ready for the wire.
    ///
    /// Writes the status line, then `headers` in order, then `Date`, `Content-Length` (the body's size;
    /// left out for 1xx, 204 and 304, which never carry a body) and, when `keepAlive` is false,
    /// `Connection: close`. Fields named `Date` or `Content-Length` in `headers` are replaced, as is
    /// `Connection` when closing. `headOnly` is for answering HEAD: the body is left out, its
    /// `Content-Length` stays. Control characters in field names and values are written as spaces,
    /// so a value can never start a field of its own.
    public func serialized(date: HTTPDate, keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        let noContent = hasNoContent
        let writesBody = !headOnly && !noContent
        var output: [UInt8] = []
        output.reserveCapacity(128 + headers.count * 32 + (writesBody ? body.count : 0))
        output.append(contentsOf: "HTTP/1.1 \(status.code) ".utf8)
        appendFieldText(status.reason, to: &output)
        output.append(contentsOf: crlf)
        for (name, value) in headers {
            if name.caseInsensitiveEquals("Date") || name.caseInsensitiveEquals("Content-Length") { continue }
            if !keepAlive && name.caseInsensitiveEquals("Connection") { continue }
            appendField(name, value, to: &output)
        }
        output.append(contentsOf: "Date: ".utf8)
        date.append(to: &output)
        output.append(contentsOf: crlf)
        if !noContent {
            appendField("Content-Length", String(body.count), to: &output)
        }
        if !keepAlive {
            appendField("Connection", "close", to: &output)
        }
        output.append(contentsOf: crlf)
        if writesBody {
            output.append(contentsOf: body)
        }
        return output
    }
}

private let crlf: [UInt8] = [ASCII.cr, ASCII.lf]

private func appendField(_ name: String, _ value: String, to output: inout [UInt8]) {
    appendFieldText(name, to: &output)
    output.append(contentsOf: ": ".utf8)
    appendFieldText(value, to: &output)
    output.append(contentsOf: crlf)
}

private func appendFieldText(_ text: String, to output: inout [UInt8]) {
    for byte in text.utf8 {
        output.append(byte < ASCII.space && byte != ASCII.tab || byte == 0x7F ? ASCII.space : byte)
    }
}
