import ArgumentParser
import RollboardConfig

/// What `sources check` and `hooks test` share: the configuration loaded (or its problems printed, exit status 1), and
/// one of its entries found by id (or the known ids printed, exit status 1).
enum CheckedConfiguration {
    static func load(_ folder: String) throws -> RollboardConfiguration {
        do {
            return try RollboardConfiguration.load(directory: folder)
        } catch {
            print("configuration refused:\n" + error.problems.joined(separator: "\n"))
            throw ExitCode(1)
        }
    }

    /// The entry whose id is `id`; `noun` names the kind (`source`, `webhook`), `folder` where they are kept.
    static func find<Entry>(
        _ id: String, in entries: [Entry], id key: (Entry) -> String, noun: String, folder: String
    ) throws -> Entry {
        if let entry = entries.first(where: { key($0) == id }) { return entry }
        let known = entries.map(key).joined(separator: ", ")
        print("no \(noun) \"\(id)\" in \(folder)/" + (known.isEmpty ? "" : " (\(noun)s: \(known))"))
        throw ExitCode(1)
    }
}
