package import RollboardCore
package import RollboardConfig

/// Reads what `BinaryWriter` wrote; every read fails with `nil` past the end instead of trapping.
struct BinaryReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.offset = bytes.startIndex
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.endIndex - offset >= size else { return nil }
        var value: T = 0
        for index in 0..<size {
            value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
        }
        offset += size
        return value
    }

    mutating func readDouble() -> Double? {
        read(UInt64.self).map(Double.init(bitPattern:))
    }

    mutating func readOptionalDouble() -> Double?? {
        guard let value = readDouble() else { return nil }
        return .some(value.isNaN ? nil : value)
    }

    mutating func readString() -> String? {
        guard let count = read(UInt32.self).map(Int.init), bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return String(validating: bytes[offset..<offset + count], as: UTF8.self)
    }

    mutating func readRaw(_ count: Int) -> ArraySlice<UInt8>? {
        guard bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
