import Testing

@testable import RollboardNet
@testable import RollboardRedis

/// The RESP side without a server: commands encoded, replies parsed from bytes.
@Suite("Redis replies and commands in memory")
struct RedisReplyReaderTests {
    static let replies: [(String, RedisReply)] = [
        ("+OK\r\n", .status("OK")),
        ("-ERR unknown command 'X'\r\n", .error("ERR unknown command 'X'")),
        (":-42\r\n", .integer(-42)),
        (":9223372036854775807\r\n", .integer(.max)),
        ("$5\r\na\r\nb\0\r\n", .bulk([0x61, 0x0d, 0x0a, 0x62, 0x00])),
        ("$0\r\n\r\n", .bulk([])),
        ("$-1\r\n", .null),
        ("*-1\r\n", .null),
        ("*0\r\n", .array([])),
        ("*3\r\n:1\r\n*2\r\n+a\r\n$-1\r\n-E\r\n", .array([.integer(1), .array([.status("a"), .null]), .error("E")])),
    ]

    @Test("each kind of reply is parsed, whole or a byte at a time", arguments: replies)
    func parsesReply(wire: String, expected: RedisReply) throws {
        #expect(try RedisReplyReader().feed(Array(wire.utf8)) == [expected])
        let reader = RedisReplyReader()
        var parsed: [RedisReply] = []
        for byte in wire.utf8 {
            parsed += try reader.feed([byte])
        }
        #expect(parsed == [expected])
    }

    @Test("several replies in one read come out in order, and a partial one waits for the rest")
    func pipelinedReplies() throws {
        let reader = RedisReplyReader()
        #expect(try reader.feed(Array(":1\r\n:2\r\n$3\r\nab".utf8)) == [.integer(1), .integer(2)])
        #expect(try reader.feed(Array("c\r\n+PONG".utf8)) == [.bulk(Array("abc".utf8))])
        #expect(try reader.feed(Array("\r\n".utf8)) == [.status("PONG")])
    }

    @Test("bytes that are not RESP are a protocol error, and the reader stays failed")
    func protocolError() throws {
        let reader = RedisReplyReader()
        let error = try #require(throws: RedisError.self) { try reader.feed(Array("hello\r\n".utf8)) }
        #expect(error.kind == .protocolError)
        #expect(throws: error) { try reader.feed(Array("+OK\r\n".utf8)) }
    }

    @Test("a reply larger than the limit is a protocol error, counted across reads")
    func replyTooLarge() throws {
        let reader = RedisReplyReader(maximumReplyBytes: 64)
        #expect(
            try reader.feed(Array("$50\r\n".utf8) + Array(repeating: 0x61, count: 50) + Array("\r\n".utf8)).count == 1)
        _ = try reader.feed(Array("*100\r\n".utf8))
        for _ in 0..<14 { _ = try reader.feed(Array(":1\r\n".utf8)) }  // 6 + 56 bytes of one array reply
        let error = try #require(throws: RedisError.self) { try reader.feed(Array(":1\r\n:1\r\n".utf8)) }
        #expect(error.kind == .protocolError)
        #expect(error.message == "a reply is larger than 64 bytes")
    }

    @Test("a command is an array of binary-safe bulk strings")
    func encodesCommand() {
        let encoded = RedisCommandEncoder.encode([Array("SET".utf8), [0x00, 0x0d, 0x0a], []])
        #expect(encoded == Array("*3\r\n$3\r\nSET\r\n$3\r\n\0\r\n\r\n$0\r\n\r\n".utf8))
    }

    @Test("string and integer conveniences read only the replies they fit")
    func conveniences() {
        #expect(RedisReply.status("OK").string == "OK")
        #expect(RedisReply.bulk(Array("✓".utf8)).string == "✓")
        #expect(RedisReply.bulk([0xff]).string == nil)
        #expect(RedisReply.error("ERR").string == nil)
        #expect(RedisReply.integer(7).integerValue == 7)
        #expect(RedisReply.bulk(Array("7".utf8)).integerValue == nil)
    }
}
