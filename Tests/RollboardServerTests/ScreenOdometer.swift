/// An odometer tile's state as the wire carries it.
struct ScreenOdometer: Equatable, CustomStringConvertible {
    var digits: [Double]
    var negative = false
    var target: Double

    init(digits: [Double], negative: Bool = false, target: Double) {
        self.digits = digits
        self.negative = negative
        self.target = target
    }

    init?(_ state: Any?) {
        guard let object = state as? [String: Any], let digits = object["digits"] as? [Double],
            let negative = object["negative"] as? Bool, let target = object["target"] as? Double
        else { return nil }
        self.init(digits: digits, negative: negative, target: target)
    }

    /// Every column rests on a whole digit.
    var isAtRest: Bool { digits.allSatisfy { $0 == $0.rounded() } }

    /// At rest on exactly these digits.
    func rests(on expected: [Int]) -> Bool { digits == expected.map(Double.init) }

    var description: String { "\(digits) → \(target)" }
}

/// The revenue odometer's state in a frame, when the frame holds it.
func revenue(in frame: [String: Any]) -> ScreenOdometer? {
    ScreenOdometer((frame["tiles"] as? [String: Any])?["revenue"])
}
