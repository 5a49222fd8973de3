
/// Everything wrong with a configuration, one line per problem, each naming the file, the tile (if any) and the field.
///
/// Example line: `config/dashboards/demo.yaml: tile "revenue": decimals: must be between 0 and 6, got 9`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in the order they were found (files in name order, fields in document order).
    public var problems: [String]

    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        problems.joined(separator: "\n")
    }
}
