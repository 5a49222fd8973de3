package import RollboardCore
package import RollboardConfig

/// Reads the framed records of a journal and finds where the intact part ends.
struct JournalScanner {
    /// The records read, in file order.
    var records: [StoreChange] = []
    /// Bytes from the start of the file up to the end of the last intact record.
    var intactLength: Int
    /// Why reading stopped before the end of the file, or `nil` if every byte was an intact record.
    var damage: String?

    /// Scans `bytes` from `offset` (just after the file header).
    init(_ bytes: [UInt8], from offset: Int) {
        intactLength = offset
        var position = offset
        while position < bytes.count {
            var reader = BinaryReader(bytes[position...])
            guard let length = reader.read(UInt32.self).map(Int.init), let crc = reader.read(UInt32.self) else {
                damage = "a record header is cut short at byte \(position)"
                return
            }
            guard length > 0, length <= StoreChange.maximumPayloadSize else {
                damage = "a record at byte \(position) claims an impossible length of \(length) bytes"
                return
            }
            guard let payload = reader.readRaw(length) else {
                damage =
                    "a record at byte \(position) is cut short (\(bytes.count - position) of "
                    + "\(length + StoreChange.frameHeaderSize) bytes)"
                return
            }
            guard CRC32.checksum(payload) == crc else {
                damage = "a record at byte \(position) fails its CRC check"
                return
            }
            guard let record = StoreChange(payload: payload) else {
                damage = "a record at byte \(position) has a valid CRC but cannot be decoded"
                return
            }
            records.append(record)
            position += StoreChange.frameHeaderSize + length
            intactLength = position
        }
    }

    /// The payloads of the intact frames of `bytes` from `offset`, for files holding raw frames (the snapshot).
    static func frames(_ bytes: [UInt8], from offset: Int) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var reader = BinaryReader(bytes[offset...])
        while !reader.isAtEnd {
            guard let length = reader.read(UInt32.self).map(Int.init), let crc = reader.read(UInt32.self),
                let payload = reader.readRaw(length), CRC32.checksum(payload) == crc
            else { return [] }
            result.append(payload)
        }
        return result
    }
}
