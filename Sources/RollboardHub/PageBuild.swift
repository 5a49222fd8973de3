package import RollboardConfig

/// The page a node serves, as the hello tells its screens (`page`): its build, and over how many seconds a screen
/// running another build spreads its reload (docs/protocol.md, docs/cluster.md "Rolling upgrade").
package struct PageBuild: Sendable, Equatable {
    /// A hash over the files of the page's folder (`public/`): it changes with any of them, and is the same on every
    /// node serving the same files.
    package var id: String
    /// Seconds within which a screen running another build reloads, at a random moment.
    package var reloadSpread: Double

    package init(id: String, reloadSpread: Double = ServerSettings.Defaults.pageReloadSpread) {
        self.id = id
        self.reloadSpread = reloadSpread
    }
}
