package import RollboardCore

extension YAMLMappingReader {
    /// The list at `key`, which must be given and list at least one `item` (else `nil`, reported); `read` is how the
    /// list is read (`strings`, `sequence`).
    func requireNonEmpty<List: Collection>(_ key: String, listing item: String, _ read: (String) -> List?) -> List? {
        guard require(key), let list = read(key) else { return nil }
        guard !list.isEmpty else {
            report(key, "must list at least one \(item)")
            return nil
        }
        return list
    }

    /// The id of what a file configures (a dashboard, a playlist): its `id`, or else the file's name without its
    /// extension; reported unless it is a valid id.
    func id(orNameOf file: String) -> String {
        let stem = String(file.split(separator: "/").last?.split(separator: ".").first ?? "")
        let id = string("id") ?? stem
        if !DashboardConfiguration.isValidID(id) { report("id", "\(DashboardConfiguration.idRule), got \"\(id)\"") }
        return id
    }

    /// The mappings of the non-empty list under `key`, each read as `key[i]` (problems reported; an entry that is not
    /// a mapping is left out).
    func entries(_ key: String, listing item: String) -> [YAMLMappingReader] {
        guard let nodes = requireNonEmpty(key, listing: item, sequence) else { return [] }
        return nodes.enumerated().compactMap { index, node in
            YAMLMappingReader(node, context: context, field: "\(key)[\(index)]", problems: problems)
        }
    }
}
