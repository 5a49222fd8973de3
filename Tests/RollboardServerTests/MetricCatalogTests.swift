import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("MetricCatalog")
struct MetricCatalogTests {
    static let configuration = try! RollboardConfiguration.parse(
        serverYAML: nil,
        dashboards: [
            (
                "config/dashboards/a.yaml",
                """
                id: a
                tiles:
                  - {id: fixed, type: odometer, columns: 4, decimals: 1}
                  - {id: growing, type: odometer, maxColumns: 6}
                  - {id: count, type: counter}
                  - {id: cents, type: counter, format: "%.2f"}
                  - {id: status, type: wheel, contents: [a, b, c]}
                  - {id: news, type: carousel, slides: [{text: a}, {text: b}, {text: c}]}
                """
            ),
            (
                "config/dashboards/b.yaml",
                """
                id: b
                tiles:
                  - {id: small, metric: fixed, type: odometer, columns: 3, decimals: 1}
                  - {id: status, type: wheel, contents: [a, b]}
                """
            ),
        ])

    @Test(
        "each tile accepts exactly the values its own animation can show",
        arguments: [
            ("growing", 999_999.0, true), ("growing", 1_000_000.0, false), ("growing", -999_999.0, true),
            ("growing", 999_999.4, true), ("growing", 999_999.5, false),
            ("fixed", 99.9, true), ("fixed", 99.94, true), ("fixed", 99.96, false), ("fixed", -99.9, true),
            ("count", 999_999_999_999_999.0, true), ("count", 1e16, false),
            ("cents", 8.9e13, true), ("cents", 1e14, false), ("cents", -1e14, false),
        ])
    func valueLimits(id: String, value: Double, fits: Bool) {
        #expect((Self.configuration.catalog.problem(showing: value, as: id) == nil) == fits)
    }

    @Test("a metric shown by several tiles must fit the narrowest")
    func narrowestTile() {
        let problem = Self.configuration.catalog.problem(showing: 150, as: "fixed")
        #expect(
            problem
                == #"150 is too wide for tile "small" of dashboard "b": 3 columns with 1 decimals show at most ±99.9"#)
    }

    @Test("a counter refuses what its own format cannot show, with the counter's reason")
    func counterUsesItsOwnRule() {
        let problem = Self.configuration.catalog.problem(showing: 1e14, as: "cents")
        #expect(
            problem
                == #"100000000000000 is too large for tile "cents" of dashboard "a": with 2 decimal places a counter shows magnitudes below 90000000000000"#)
    }

    @Test("kinds, wheel positions and carousel pages come from the tiles")
    func kinds() {
        let catalog = Self.configuration.catalog
        #expect(catalog.kind(of: "fixed") == .metric)
        #expect(catalog.kind(of: "small") == nil)
        #expect(catalog.kind(of: "status") == .wheel)
        #expect(catalog.wheelPositions("status") == 2)
        #expect(catalog.carouselPages("news") == 3)
        #expect(catalog.ids(of: .metric) == ["cents", "count", "fixed", "growing"])
    }
}
