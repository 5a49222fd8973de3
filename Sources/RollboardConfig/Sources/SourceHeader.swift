import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A header a source sends. Its value is a template: `${NAME}` stands for the environment variable NAME, read when the
/// request is made, so a secret lives in the environment and never in the configuration, an answer or a log.
public struct SourceHeader: Sendable, Equatable {
    public var name: String
    public var template: String

    /// The environment variables the template names, in order.
    public var variables: [String] {
        Self.pieces(of: template).compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    /// The template with each `${NAME}` replaced by `environment(NAME)`; throws the first name that has no value.
    public func value(environment: (String) -> String?) throws(SourceFailure) -> String {
        var value = ""
        for piece in Self.pieces(of: template) {
            switch piece {
            case .text(let text): value += text
            case .variable(let name):
                guard let resolved = environment(name) else { throw .missingVariable(name) }
                value += resolved
            }
        }
        return value
    }

    /// The process environment's value of `name`.
    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    enum Piece: Equatable {
        case text(String)
        case variable(String)
    }

    /// The template cut into literal text and `${NAME}` references; a `$` not followed by `{NAME}` is text.
    static func pieces(of template: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}"),
                isVariableName(rest[start.upperBound..<end])
            else {
                pieces.append(.text(String(rest[..<start.upperBound])))
                rest = rest[start.upperBound...]
                continue
            }
            if start.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<start.lowerBound]))) }
            pieces.append(.variable(String(rest[start.upperBound..<end])))
            rest = rest[rest.index(after: end)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    /// A POSIX-style variable name: letters, digits and `_`, not starting with a digit.
    static func isVariableName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == 0x5F || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
    }
}
