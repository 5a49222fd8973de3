/// Whether `actual` is within `tolerance` of `expected`.
func isClose(_ actual: Double, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    abs(actual - expected) <= tolerance
}

/// Whether two position lists match element by element within `tolerance`.
func isClose(_ actual: some Collection<Double>, _ expected: [Double], tolerance: Double = 1e-9) -> Bool {
    actual.count == expected.count && zip(actual, expected).allSatisfy { isClose($0, $1, tolerance: tolerance) }
}
