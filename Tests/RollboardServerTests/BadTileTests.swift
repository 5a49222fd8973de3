import Testing

/// The refusals of every tile kind whose configuration has a suite of its own, in one table.
@Suite("A bad chart, gauge or leaderboard tile is refused with a message naming its file, tile and field")
struct BadTileTests {
    @Test(
        "the one problem a bad tile is refused for",
        arguments: ChartTileTests.badCharts + GaugeTileTests.badGauges + LeaderboardTileTests.badLeaderboards)
    func refused(yaml: String, message: String) {
        #expect(OneTileDashboard.problems(tile: yaml) == [message])
    }
}
