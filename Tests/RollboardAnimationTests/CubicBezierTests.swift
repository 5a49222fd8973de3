import RollboardTestSupport
import Testing
import RollboardAnimation

@Suite("CubicBezier")
struct CubicBezierTests {
    @Test("UIKit's named curves give the progress a browser gives", arguments: [
        (CubicBezier.easeIn, 0.5, 0.31535681257253945),
        (CubicBezier.easeOut, 0.5, 0.6846431874274606),
        (CubicBezier.easeOut, 0.3, 0.4451859674713371),
        (CubicBezier.easeInOut, 0.25, 0.1291619310473198),
        (CubicBezier.easeInOut, 0.5, 0.5),
        (CubicBezier.linear, 0.3, 0.3),
    ])
    func namedCurves(curve: CubicBezier, time: Double, progress: Double) {
        #expect(isClose(curve(time), progress))
    }

    @Test("every curve starts at 0, ends at 1 and clamps times outside [0, 1]", arguments: [
        CubicBezier.easeIn, .easeOut, .easeInOut, .linear, CubicBezier(0.1, 0.9, 0.2, 1),
    ])
    func endpoints(curve: CubicBezier) {
        #expect(curve(0) == 0)
        #expect(curve(1) == 1)
        #expect(curve(-3) == 0)
        #expect(curve(7) == 1)
    }

    @Test("progress never decreases as time goes on for monotone curves")
    func monotone() {
        var generator = SplitMix64(seed: 7)
        for curve in [CubicBezier.easeIn, .easeOut, .easeInOut] {
            let times = (0..<500).map { _ in Double.random(in: 0...1, using: &generator) }.sorted()
            let progress = times.map { curve($0) }
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
        }
    }
}
