package import RollboardCore
import Yams

/// A playlist from `config/playlists/ID.yaml`: dashboards shown in turn, each for its own seconds, on every screen
/// of the playlist at the same moment (`/p/ID`).
public struct PlaylistConfiguration: Sendable, Equatable {
    /// One dashboard of the rotation and how long it stays.
    public struct Entry: Sendable, Equatable {
        public var dashboard: String
        public var seconds: Double
    }

    public var id: String
    public var title: String
    public var entries: [Entry]
    /// The file the playlist came from, as named in error messages.
    public var file: String
}

extension PlaylistConfiguration {
    static let keys = ["id", "title", "entries"]

    /// Reads a playlist from the root node of its file; every entry must name one of `dashboards`. `nil` when it has
    /// problems (reported).
    init?(node: Node, file: String, dashboards: Set<String>, problems: ConfigurationProblems) {
        let before = problems.lines.count
        guard let reader = YAMLMappingReader(node, context: file, field: "", problems: problems) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.keys)
        let id = reader.id(orNameOf: file)
        let title = reader.string("title") ?? id
        var entries: [Entry] = []
        if reader.require("entries"), let nodes = reader.sequence("entries") {
            if nodes.isEmpty { reader.report("entries", "must not be empty") }
            for (index, entryNode) in nodes.enumerated() {
                guard
                    let entry = YAMLMappingReader(
                        entryNode, context: file, field: "entries[\(index)]", problems: problems)
                else { continue }
                entry.rejectUnknownKeys(allowed: ["dashboard", "seconds"])
                guard entry.require("dashboard"), let dashboard = entry.string("dashboard") else { continue }
                if !dashboards.contains(dashboard) {
                    entry.report("dashboard", "no dashboard \"\(dashboard)\" is configured")
                }
                let seconds = entry.double("seconds", in: 1...86_400) ?? 30
                entries.append(Entry(dashboard: dashboard, seconds: seconds))
            }
        }
        guard problems.lines.count == before else { return nil }
        self.init(id: id, title: title, entries: entries, file: file)
    }
}
