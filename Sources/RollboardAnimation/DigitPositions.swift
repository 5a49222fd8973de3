/// Up to 15 odometer column positions, most significant column first, stored inline (no heap
/// allocation) so that computing a frame allocates nothing.
///
/// Each position is a real number in [0, 10): the digit strip `0 1 … 9 0` shifted so that 3.25
/// shows a quarter of the way from 3 to 4.
public struct DigitPositions: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The largest number of columns.
    public static let capacity = 15

    private typealias Storage = (
        Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double
    )
    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// The number of columns.
    public private(set) var count: Int

    /// Creates `count` columns all at `position`.
    init(count: Int, repeating position: Double) {
        precondition((0...Self.capacity).contains(count), "an odometer has at most \(Self.capacity) columns")
        self.count = count
        for index in 0..<count { self[index] = position }
    }

    /// Creates the columns from `positions`, most significant first; at most ``capacity`` of them.
    public init(_ positions: some Sequence<Double>) {
        self.init(count: 0, repeating: 0)
        for position in positions {
            precondition(count < Self.capacity, "an odometer has at most \(Self.capacity) columns")
            count += 1
            self[count - 1] = position
        }
    }

    public init(arrayLiteral elements: Double...) {
        self.init(elements)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The position of the column at `index` (0 is the most significant column).
    public internal(set) subscript(index: Int) -> Double {
        get {
            precondition(index >= 0 && index < count, "column index out of range")
            return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: index &* 8, as: Double.self) }
        }
        set {
            precondition(index >= 0 && index < Self.capacity, "column index out of range")
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: index &* 8, as: Double.self) }
        }
    }

    public static func == (lhs: DigitPositions, rhs: DigitPositions) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for position in self { hasher.combine(position) }
    }

    public var description: String { Array(self).description }
}
