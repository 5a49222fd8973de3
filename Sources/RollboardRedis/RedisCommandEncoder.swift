/// Writes commands the way Redis reads them: a RESP array of bulk strings, binary-safe
/// (`*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n`).
enum RedisCommandEncoder {
    /// Appends `arguments` as one command to `buffer`.
    static func encode(_ arguments: [[UInt8]], into buffer: inout [UInt8]) {
        appendHeader(UInt8(ascii: "*"), arguments.count, to: &buffer)
        for argument in arguments {
            appendHeader(UInt8(ascii: "$"), argument.count, to: &buffer)
            buffer += argument
            buffer += crlf
        }
    }

    /// `arguments` as one command.
    static func encode(_ arguments: [[UInt8]]) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(arguments, into: &buffer)
        return buffer
    }

    private static let crlf: [UInt8] = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]

    private static func appendHeader(_ marker: UInt8, _ count: Int, to buffer: inout [UInt8]) {
        buffer.append(marker)
        buffer += String(count).utf8
        buffer += crlf
    }
}
