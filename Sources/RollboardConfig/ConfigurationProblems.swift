
/// Collects configuration problems while a file is read, so that one run reports all of them.
final class ConfigurationProblems {
    private(set) var lines: [String] = []

    var isEmpty: Bool { lines.isEmpty }

    /// Records `message` about `field`, prefixed with `context` (the file, and the tile if any).
    func report(_ context: String, _ field: String, _ message: String) {
        lines.append(field.isEmpty ? "\(context): \(message)" : "\(context): \(field): \(message)")
    }
}

@available(*, unavailable)
extension ConfigurationProblems: Sendable {}
