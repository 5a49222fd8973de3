import Testing

@testable import RollboardNet

@Suite("HTTP parse error")
struct HTTPParseErrorTests {
    static let all: [(HTTPParseError, Int)] = [
        (.malformedRequestLine, 400), (.invalidMethod, 400), (.invalidTarget, 400), (.malformedVersion, 400),
        (.bareCarriageReturn, 400), (.tooManyEmptyLines, 400), (.obsoleteLineFolding, 400),
        (.whitespaceBeforeColon, 400), (.missingColon, 400), (.invalidFieldName, 400), (.invalidFieldValue, 400),
        (.missingHost, 400), (.multipleHosts, 400), (.invalidContentLength, 400), (.conflictingContentLength, 400),
        (.bodyTooLarge, 413), (.requestLineTooLong, 414), (.headerSectionTooLarge, 431), (.tooManyHeaderFields, 431),
        (.chunkedNotSupported, 501), (.transferCodingNotSupported, 501), (.versionNotSupported, 505),
    ]

    @Test("each error carries its status and answers with a closing JSON error", arguments: all)
    func answersWithClosingJSONError(error: HTTPParseError, code: Int) {
        #expect(error.status.code == code)
        let response = error.response
        #expect(response.status.code == code)
        #expect(response.headers["Connection"] == "close")
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == "{\"error\":\"\(error.identifier)\",\"detail\":\"\(error.detail)\"}")
    }

    @Test("every error has its own identifier")
    func identifiersAreDistinct() {
        #expect(Set(Self.all.map(\.0.identifier)).count == Self.all.count)
    }
}
