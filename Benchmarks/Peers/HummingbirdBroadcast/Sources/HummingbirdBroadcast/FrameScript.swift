import Foundation
import NIOCore

/// The messages the peer sends, read from a frames file.
///
/// The file is UTF-8 text with one WebSocket text message per line: line 1 is the `hello` message sent once to each
/// new connection, lines 2… are the frames the shared timer broadcasts in turn, wrapping from the last back to line
/// 2. A `\r` before a line's `\n` is dropped, and so are empty lines at the end of the file.
///
/// Each message is encoded once into a `ByteBuffer` that every connection's writer shares, so a broadcast copies no
/// text per connection (permessage-deflate, when negotiated, still compresses per connection).
struct FrameScript: Sendable {
    /// The hello message, UTF-8.
    let hello: ByteBuffer
    /// The frames, UTF-8, in file order; never empty.
    let frames: [ByteBuffer]

    /// A frames file that cannot be used.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads and splits the file at `path`.
    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read frames file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "frames file \(path) is not UTF-8")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard lines.count >= 2 else {
            throw LoadError(description: "frames file \(path) needs a hello line and at least one frame line")
        }
        self.hello = ByteBuffer(string: String(lines[0]))
        self.frames = lines.dropFirst().map { ByteBuffer(string: String($0)) }
    }
}
