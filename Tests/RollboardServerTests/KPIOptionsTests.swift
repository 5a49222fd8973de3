import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub

@Suite("KPIOptions")
struct KPIOptionsTests {
    @Test(
        "a value's status follows the goal and thresholds, flipped when lower is better",
        arguments: [
            (false, 120.0, KPIStatus.good), (false, 100, .good), (false, 99, .normal), (false, 50, .warning),
            (false, 20, .critical), (false, 10, .critical),
            (true, 10, .good), (true, 20, .normal), (true, 50, .warning), (true, 80, .warning), (true, 100, .critical),
        ])
    func status(lowerIsBetter: Bool, value: Double, status: KPIStatus) {
        let options = lowerIsBetter
            ? KPIOptions(goal: 10, warning: 50, critical: 100, lowerIsBetter: true)
            : KPIOptions(goal: 100, warning: 50, critical: 20)
        #expect(options.orderProblem == nil)
        #expect(options.status(of: value) == status)
    }

    @Test("without a goal or threshold there is no status")
    func noStatus() {
        #expect(KPIOptions(delta: .previous).status(of: 5) == nil)
    }

    @Test(
        "limits out of order are named",
        arguments: [
            (KPIOptions(goal: 10, warning: 50), "warning (50) must be below goal (10)"),
            (KPIOptions(warning: 10, critical: 10), "critical (10) must be below warning (10)"),
            (KPIOptions(goal: 100, critical: 50, lowerIsBetter: true), "critical (50) must be above goal (100) when lower is better"),
        ])
    func order(options: KPIOptions, problem: String) {
        #expect(options.orderProblem == problem)
    }

    @Test(
        "the arrow compares with the previous value or a baseline, its sense by lowerIsBetter",
        arguments: [
            (KPIOptions(delta: .previous), 1_250.5, 1_000.0 as Double?, #","trend":"up","delta":250.5,"deltaText":"+250.50","sense":"better""#),
            (KPIOptions(lowerIsBetter: true, delta: .previous), 1_250.5, 1_000, #","trend":"up","delta":250.5,"deltaText":"+250.50","sense":"worse""#),
            (KPIOptions(delta: .previous), 900, 1_000, #","trend":"down","delta":-100,"deltaText":"−100.00","sense":"worse""#),
            (KPIOptions(delta: .previous), 900, nil, ""),
            (KPIOptions(delta: .baseline(900)), 900.001, nil, #","trend":"flat","delta":0.001,"deltaText":"0.00","sense":"same""#),
            (KPIOptions(goal: 1_000, delta: .none), 1_000, 5, #","status":"good""#),
        ])
    func arrow(options: KPIOptions, target: Double, previous: Double?, members: String) throws {
        let indicator = KPIIndicator(options: options, deltaFormat: try .init(format: "%.2f"))
        let encoded = indicator.members(target: target, previous: previous).map { ",\"\($0.name)\":\($0.json)" }
        #expect(encoded.joined() == members)
    }
}
