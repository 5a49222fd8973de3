import Testing

@testable import RollboardNet
@testable import RollboardClient

@Suite("HTTP client")
struct HTTPClientTests {
    @Test("a response is complete only when its Content-Length bytes have arrived")
    func responseNeedsItsWholeBody() throws {
        let head = Array("HTTP/1.1 202 Accepted\r\nContent-Length: 5\r\nContent-Type: application/json\r\n\r\n".utf8)
        #expect(try HTTPClient.parseResponse(head + Array("{\"a\"".utf8), method: "POST") == nil)
        let response = try #require(try HTTPClient.parseResponse(head + Array("{\"a\"}".utf8), method: "POST"))
        #expect(response.status.code == 202)
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"a\"}")
    }

    @Test("a response without a length ends when the connection does")
    func responseWithoutLengthEndsAtClose() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\n\r\nhello".utf8)
        #expect(try HTTPClient.parseResponse(bytes, method: "GET") == nil)
        #expect(try HTTPClient.parseResponse(bytes, method: "GET", atEnd: true)?.body == Array("hello".utf8))
    }

    @Test("a request goes out with Host, Content-Length and Connection: close")
    func requestSerialization() {
        let request = HTTPRequest(method: "POST", target: "/api/v1/metrics/revenue", body: Array("{}".utf8))
        let text = String(decoding: HTTPClient.serialize(request, host: "::1", port: 8443), as: UTF8.self)
        #expect(text == "POST /api/v1/metrics/revenue HTTP/1.1\r\nHost: [::1]:8443\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    }
}
