import RollboardAccess
package import RollboardConfig
import RollboardSources
import RollboardStore

/// Where a paired TV's key points now (`POST /api/v1/tv/resume`): the page of the latest assignment this node applied
/// to the key's screen, if its key opens it; else the page the TV kept, if its key still opens exactly that; else a
/// page built from what the key opens (its one dashboard, or the configured playlist whose dashboards are exactly
/// the key's), named after the key, with the kept page's `theme` and `kiosk`. `nil` when none fits.
struct TVResume {
    let key: ViewerKey
    let configuration: RollboardConfiguration

    func page(assigned: String?, kept: String?) -> String? {
        let kept = kept.map(Self.withoutKey)
        for page in [assigned, kept].compactMap({ $0 }) where opensExactly(page) { return page }
        guard let dashboards = key.dashboards else { return nil }
        let options = kept.map(Self.options) ?? ""
        let name = "?name=" + SourceFetch.percentEncoded(key.name)
        if dashboards.count == 1 { return "/d/" + SourceFetch.percentEncoded(dashboards[0]) + name + options }
        let wanted = Set(dashboards)
        let playlist = configuration.playlists.sorted { $0.id < $1.id }
            .first { Set($0.entries.map(\.dashboard)) == wanted }
        return playlist.map { "/p/" + SourceFetch.percentEncoded($0.id) + name + options }
    }

    /// Whether `page` is a configured dashboard or playlist whose dashboards are exactly the key's (any, for a key
    /// that opens every dashboard).
    private func opensExactly(_ page: String) -> Bool {
        let path = page.split(separator: "?", maxSplits: 1).first.map(String.init) ?? page
        let shown: Set<String>? =
            if let dashboard = configuration.dashboards.first(where: {
                path == "/d/" + SourceFetch.percentEncoded($0.id)
            }) {
                [dashboard.id]
            } else if let playlist = configuration.playlists.first(where: {
                path == "/p/" + SourceFetch.percentEncoded($0.id)
            }) {
                Set(playlist.entries.map(\.dashboard))
            } else {
                nil
            }
        guard let shown else { return false }
        return key.dashboards.map { Set($0) == shown } ?? true
    }

    /// `page` without its `key=` parameter.
    static func withoutKey(_ page: String) -> String {
        let parts = page.split(separator: "?", maxSplits: 1)
        guard parts.count == 2 else { return page }
        let kept = parts[1].split(separator: "&").filter { !$0.hasPrefix("key=") }
        return kept.isEmpty ? String(parts[0]) : parts[0] + "?" + kept.joined(separator: "&")
    }

    /// The `&theme=…` and `&kiosk` of `page`, as a page built here carries them.
    static func options(_ page: String) -> String {
        let parameters = page.split(separator: "?", maxSplits: 1).dropFirst().first?.split(separator: "&") ?? []
        var options = ""
        if let theme = parameters.first(where: { $0 == "theme=dark" || $0 == "theme=light" }) { options += "&" + theme }
        if parameters.contains(where: { $0 == "kiosk" || $0 == "kiosk=1" }) { options += "&kiosk" }
        return options
    }
}
