/// Appends little-endian fixed-width values and length-prefixed strings to a byte array.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    mutating func write(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ value: Double) {
        write(value.bitPattern)
    }

    /// An optional `Double`, absent written as NaN (never a valid stored value).
    mutating func write(optional value: Double?) {
        write(value ?? .nan)
    }

    mutating func write(_ text: String) {
        let utf8 = Array(text.utf8)
        write(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func write(raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}

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
