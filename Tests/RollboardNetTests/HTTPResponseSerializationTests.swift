import Testing

@testable import RollboardNet

private let date = HTTPDate(secondsSince1970: 784_111_777)

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite("HTTP response serialization")
struct HTTPResponseSerializationTests {
    @Test("a keep-alive response has the status line, its headers, Date, Content-Length and the body")
    func serializesKeepAliveResponse() {
        let response = HTTPResponse(status: .ok, contentType: "application/json", text: "{}")
        #expect(
            text(response.serialized(date: date, keepAlive: true))
                == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                + "Content-Length: 2\r\n\r\n{}")
    }

    @Test("a closing response says Connection: close, replacing any Connection header it had")
    func serializesClosingResponse() {
        let response = HTTPResponse(status: .notFound, headers: ["Connection": "keep-alive"], body: Array("no".utf8))
        #expect(
            text(response.serialized(date: date, keepAlive: false))
                == "HTTP/1.1 404 Not Found\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 2\r\n"
                + "Connection: close\r\n\r\nno")
    }

    @Test("Date and Content-Length given by the handler are replaced by the true ones")
    func replacesDateAndContentLength() {
        let response = HTTPResponse(
            status: .ok, headers: ["Content-Length": "99", "date": "yesterday", "X-A": "1"], body: [1, 2, 3])
        #expect(
            response.serialized(date: date, keepAlive: true)
                == Array(
                    "HTTP/1.1 200 OK\r\nX-A: 1\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 3\r\n\r\n".utf8
                )
                + [1, 2, 3])
    }

    @Test("a HEAD answer keeps the body's Content-Length but leaves the body out")
    func leavesBodyOutForHead() {
        let response = HTTPResponse(status: .ok, contentType: "text/plain", text: "hello")
        let bytes = text(response.serialized(date: date, keepAlive: true, headOnly: true))
        #expect(bytes.hasSuffix("Content-Length: 5\r\n\r\n"))
    }

    static let noContent: [HTTPStatus] = [.switchingProtocols, .noContent, .notModified]

    @Test("1xx, 204 and 304 responses have neither Content-Length nor body", arguments: noContent)
    func omitsContentLengthWhereForbidden(status: HTTPStatus) {
        let response = HTTPResponse(status: status, headers: ["ETag": "\"1\""], body: Array("ignored".utf8))
        #expect(
            text(response.serialized(date: date, keepAlive: true))
                == "HTTP/1.1 \(status.code) \(status.reason)\r\nETag: \"1\"\r\n"
                + "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n")
    }

    @Test("a 101 response keeps its own Connection: Upgrade")
    func keepsUpgradeConnectionHeader() {
        let response = HTTPResponse(
            status: .switchingProtocols, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
        #expect(text(response.serialized(date: date, keepAlive: true)).contains("\r\nConnection: Upgrade\r\n"))
    }

    @Test("control characters in header values cannot start a header of their own")
    func neutralizesHeaderInjection() {
        let response = HTTPResponse(status: .ok, headers: ["Location": "/a\r\nSet-Cookie: x=1"])
        let bytes = text(response.serialized(date: date, keepAlive: true))
        #expect(bytes.contains("Location: /a  Set-Cookie: x=1\r\n"))
        #expect(!bytes.contains("\r\nSet-Cookie"))
    }
}
