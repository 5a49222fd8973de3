import ArgumentParser
import Foundation

/// A batch file for `rollboard push --batch`: the JSON body of `POST /api/v1/metrics` (`{"updates":[…]}`, sent as
/// written), or lines of `ID VALUE` (blank lines skipped, `#` starts a comment) made into that body.
enum PushBatch {
    /// The body to post for the file at `path` (`-`: stdin); `values` apply to every line of a batch of lines.
    /// Throws a `ValidationError` for a file that cannot be read or a line that is not `ID VALUE`.
    static func body(path: String, values: PushValueOptions) throws -> [UInt8] {
        let name = path == "-" ? "stdin" : path
        let bytes: [UInt8]
        if path == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else if let data = FileManager.default.contents(atPath: path) {
            bytes = Array(data)
        } else {
            let missing = !FileManager.default.fileExists(atPath: path)
            throw ValidationError("cannot read the batch file \(path)" + (missing ? ": no such file" : ""))
        }
        if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            if let option = values.given.first {
                throw ValidationError("\(option) is for batches of ID VALUE lines; in a JSON batch give it per update")
            }
            return bytes
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let items = try lines.enumerated().compactMap { offset, line in
            try item(line, at: "\(name) line \(offset + 1)", values: values)
        }
        guard !items.isEmpty else {
            throw ValidationError("\(name) holds no updates: give lines of ID VALUE, or {\"updates\":[…]}")
        }
        return Array("{\"updates\":[\(items.joined(separator: ","))]}".utf8)
    }

    /// The update object of one line, `nil` for a blank or comment line; `place` names the line in errors.
    private static func item(_ line: Substring, at place: String, values: PushValueOptions) throws -> String? {
        let fields = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace)
        if fields.isEmpty { return nil }
        guard fields.count == 2 else {
            throw ValidationError("\(place): expected ID VALUE, got \"\(line.trimmingCharacters(in: .whitespaces))\"")
        }
        guard let number = PushRequest.number(String(fields[1])) else {
            throw ValidationError("\(place): VALUE must be a finite number, not \(fields[1])")
        }
        return values.object(value: number, id: String(fields[0]))
    }
}
