/// A tiny seeded generator (SplitMix64) so property tests see the same "random" values every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Whether `actual` is within `tolerance` of `expected`.
func isClose(_ actual: Double, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    abs(actual - expected) <= tolerance
}

/// Whether two position lists match element by element within `tolerance`.
func isClose(_ actual: some Collection<Double>, _ expected: [Double], tolerance: Double = 1e-9) -> Bool {
    actual.count == expected.count && zip(actual, expected).allSatisfy { isClose($0, $1, tolerance: tolerance) }
}
