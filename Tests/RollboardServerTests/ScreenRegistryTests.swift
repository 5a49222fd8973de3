import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub

@Suite("Screen registry")
struct ScreenRegistryTests {
    private let hub = DashboardHub.ops()

    @Test("a screen's reports keep its latest paint figures and its first script error")
    func reportsKeepLatestFiguresAndFirstError() {
        let registry = ScreenRegistry()
        let id = registry.add(
            dashboard: "ops", name: "Lobby TV", address: "10.0.0.7", userAgent: "TV", connectedAt: 0, hub: hub,
            sessionID: 1)
        #expect(registry.screen(id)?.paintedFPS == nil && registry.screen(id)?.scriptError == nil)

        registry.record(.init(paintedFPS: 29.5, paintMilliseconds: 4), for: id)
        registry.record(.init(scriptError: "SyntaxError: Unexpected token '.' (/js/board.js:46)"), for: id)
        registry.record(.init(paintedFPS: 14.8, paintMilliseconds: 31.2, scriptError: "TypeError: later"), for: id)

        let screen = registry.screen(id)
        #expect(screen?.paintedFPS == 14.8)
        #expect(screen?.paintMilliseconds == 31.2)
        #expect(screen?.scriptError == "SyntaxError: Unexpected token '.' (/js/board.js:46)")
    }

    @Test("an unreadable text tile is kept once per screen, and only its first report asks to be logged")
    func unreadableTilesAreKeptOnce() {
        let registry = ScreenRegistry()
        let id = registry.add(
            dashboard: "ops", name: "Lobby TV", address: nil, userAgent: nil, connectedAt: 0, hub: hub,
            sessionID: 1)
        #expect(registry.record(.init(paintedFPS: 30), for: id) == nil, "no tile named: nothing to log")
        let first = registry.record(.init(unreadableTile: "notice"), for: id)
        #expect(first?.unreadableTiles == ["notice"] && first?.name == "Lobby TV")
        #expect(registry.record(.init(unreadableTile: "notice"), for: id) == nil, "the same tile again: logged once")
        #expect(registry.record(.init(unreadableTile: "news"), for: id)?.unreadableTiles == ["notice", "news"])
        for index in 0..<100 { registry.record(.init(unreadableTile: "t\(index)"), for: id) }
        #expect(registry.screen(id)?.unreadableTiles.count == ScreenRegistry.unreadableLimit)
    }

    @Test("a report for a screen that has gone is dropped")
    func reportForGoneScreenIsDropped() {
        let registry = ScreenRegistry()
        let id = registry.add(
            dashboard: "ops", name: nil, address: nil, userAgent: nil, connectedAt: 0, hub: hub, sessionID: 1)
        registry.remove(id)
        registry.record(.init(paintedFPS: 10), for: id)
        #expect(registry.screen(id) == nil)
        #expect(registry.all.isEmpty)
    }
}
