import Testing
import RollboardAnimation

@Suite("Glide")
struct GlideTests {
    @Test("a glide starts where it is, ends on its target and never passes it nor turns back",
          arguments: [(0.0, 0.0, 10.0), (5, 40, 10), (5, 1_000, 10), (5, -20, 10), (10, -3, -50), (3, 0, 3)])
    func monotonic(from: Double, velocity: Double, to: Double) {
        let glide = Glide(from: from, velocity: velocity, to: to, duration: 2)
        #expect(glide.value(at: 0) == from)
        #expect(glide.value(at: 2) == to)
        let direction: Double = to >= from ? 1 : -1
        var previous = from
        for step in 1...400 {
            let value = glide.value(at: Double(step) / 200)
            #expect((value - previous) * direction >= -1e-12)
            #expect((to - value) * direction >= -1e-12)
            previous = value
        }
    }

    @Test("a glide keeps the speed it starts with when that speed does not overshoot")
    func keepsSpeed() {
        let glide = Glide(from: 0, velocity: 20, to: 100, duration: 2)
        #expect(isClose(glide.slope, 0.4))
        #expect(isClose(glide.velocity(at: 0), 20))
        #expect(glide.velocity(at: 2) == 0)
    }

    @Test("the start slope is clamped to 0 when moving away and to 3 when faster than the target allows",
          arguments: [(-5.0, 0.0), (1_000, 3)])
    func clampsSlope(velocity: Double, slope: Double) {
        #expect(Glide(from: 0, velocity: velocity, to: 10, duration: 1).slope == slope)
    }
}
