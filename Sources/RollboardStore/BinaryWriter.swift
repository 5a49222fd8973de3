package import RollboardCore
package import RollboardConfig

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

    /// Makes room for `count` more bytes at once, so bytes kept for long (a remembered answer) take no spare capacity.
    mutating func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    mutating func write(raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}
