import Testing

@testable import RollboardNet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("HTTP date")
struct HTTPDateTests {
    static let known: [(Int64, String)] = [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_078_012_800, "Sun, 29 Feb 2004 00:00:00 GMT"),
        (1_700_000_000, "Tue, 14 Nov 2023 22:13:20 GMT"),
        (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"),
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
    ]

    @Test("known instants format as IMF-fixdate", arguments: known)
    func formatsKnownInstants(seconds: Int64, expected: String) {
        #expect(HTTPDate(secondsSince1970: seconds).description == expected)
    }

    @Test("instants outside years 1970 to 9999 are clamped to them")
    func clampsOutOfRange() {
        #expect(HTTPDate(secondsSince1970: -1).description == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate(secondsSince1970: .max).description == "Fri, 31 Dec 9999 23:59:59 GMT")
    }

    @Test("formatting agrees with the C library's gmtime and strftime across four centuries")
    func agreesWithStrftime() {
        var mismatches: [Int64] = []
        for seconds in stride(from: Int64(0), to: 13_000_000_000, by: 9_876_543) {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            let expected = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if HTTPDate(secondsSince1970: seconds).description != expected { mismatches.append(seconds) }
        }
        #expect(mismatches.isEmpty)
    }

    @Test("now is the current time")
    func nowIsCurrent() {
        let before = Int64(time(nil))
        let now = HTTPDate.now().secondsSince1970
        #expect(now >= before && now <= Int64(time(nil)))
    }
}
