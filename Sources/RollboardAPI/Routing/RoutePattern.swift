package import RollboardCore
import RollboardNet

/// A path such as `/api/v1/metrics/:id`: literal segments and named parameters (`:name`), compared segment by
/// segment. Empty segments do not count, so `/api/v1/metrics/` and `/api//v1/metrics` are `/api/v1/metrics`.
struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    init(_ pattern: String) {
        segments = Self.split(pattern).map { $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal($0) }
    }

    /// The path's non-empty segments.
    static func split(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The parameters of `path` (its segments, already split) when it fits this pattern; `nil` when it does not.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, given) in zip(segments, path) {
            switch segment {
            case .literal(let literal): if literal != given { return nil }
            case .parameter(let name): parameters[name] = given
            }
        }
        return parameters
    }

    var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let literal): literal
            case .parameter(let name): ":" + name
            }
        }.joined(separator: "/")
    }
}
