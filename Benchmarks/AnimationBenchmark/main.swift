import RollboardAnimation

/// Prints how many odometer frames per second one core computes for an 8-column value, both for
/// the bare animation and through an `AnimationQueue` (what the server calls per client per tile).
/// Build with `swift run -c release AnimationBenchmark`.

func measure(_ label: String, frames: Int, _ frame: (Int) -> Double) {
    var checksum = 0.0
    for index in 0..<frames / 10 { checksum += frame(index) }
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for index in 0..<frames { checksum += frame(index) }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let rate = Double(frames) / seconds
    print("\(label): \(Int(rate)) frames/s (\(frames) frames in \(seconds) s, checksum \(checksum))")
}

let odometer = try Odometer(configuration: OdometerConfiguration(columns: .fixed(8)))
let start = try odometer.settle(12_345_678, after: nil)
let end = try odometer.settle(87_654_321, after: start)
let animation = odometer.animation(from: start, to: end, interval: nil)
var queue = try AnimationQueue(odometer, value: 12_345_678, at: 0)
try queue.enqueue(87_654_321, at: 0)
try queue.enqueue(10_000_000, at: 0.5)
let frames = 2_000_000
let step = (animation.duration + 1) / Double(frames)
print("8-column odometer, 12345678 → 87654321, animation lasts \(animation.duration) s")
measure("OdometerAnimation.state(at:)", frames: frames) { index in
    animation.state(at: Double(index) * step).digits[0]
}
measure("AnimationQueue<Odometer>.state(at:)", frames: frames) { index in
    queue.state(at: Double(index) * step).digits[7]
}
