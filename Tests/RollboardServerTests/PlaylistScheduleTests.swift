import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources

@Suite("PlaylistSchedule")
struct PlaylistScheduleTests {
    private let schedule = PlaylistSchedule(durations: [10, 5, 15])

    @Test(
        "the entry showing is read off the wall clock against the shared epoch, with when it ends",
        arguments: [
            (0.0, 0, 10.0), (9.999, 0, 10.0), (10.0, 1, 15.0), (14.5, 1, 15.0), (15.0, 2, 30.0), (29.9, 2, 30.0),
            (30.0, 0, 40.0), (1_700_000_012.0, 0, 1_700_000_020.0), (1_700_000_022.0, 1, 1_700_000_025.0),
        ])
    func entryAtTime(time: Double, index: Int, endsAt: Double) {
        let entry = schedule.entry(at: time)
        #expect(entry.index == index)
        #expect(abs((entry.endsAt ?? .nan) - endsAt) < 1e-6)
    }

    @Test("two schedules of the same playlist agree at every moment (two nodes, two screens)")
    func sharedEpoch() {
        let other = PlaylistSchedule(durations: [10, 5, 15])
        for step in 0..<500 {
            let time = 1_700_000_000 + Double(step) * 0.37
            #expect(schedule.entry(at: time).index == other.entry(at: time).index)
        }
    }

    @Test("showing an entry starts it now for its full seconds, and the rotation goes on from there")
    func show() {
        var moved = schedule
        moved.show(2, at: 1_700_000_003)
        #expect(moved.entry(at: 1_700_000_003).index == 2)
        #expect(abs((moved.entry(at: 1_700_000_003).endsAt ?? 0) - 1_700_000_018) < 1e-6)
        #expect(moved.entry(at: 1_700_000_018).index == 0)
        #expect(moved.entry(at: 1_700_000_028).index == 1)
    }

    @Test("holding stops on the entry showing; resuming gives it its full seconds again")
    func holdAndResume() {
        var held = schedule
        held.hold(at: 12)
        #expect(held.entry(at: 12).index == 1)
        #expect(held.entry(at: 500).index == 1 && held.entry(at: 500).endsAt == nil)
        held.show(0, at: 600)
        #expect(held.entry(at: 700).index == 0, "showing while held changes the entry held")
        held.resume(at: 1000)
        #expect(held.entry(at: 1000).index == 0)
        #expect(abs((held.entry(at: 1000).endsAt ?? 0) - 1010) < 1e-6)
        #expect(held.entry(at: 1010).index == 1)
    }
}
