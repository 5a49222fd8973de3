internal import CZlib

/// A zlib failure, mapped from its return code at the call site.
struct ZlibError: Error, Equatable {
    var code: Int32
    var message: String

    static let invalidParameters = Self(code: Z_STREAM_ERROR, message: "invalid zlib parameters")
    static let outOfMemory = Self(code: Z_MEM_ERROR, message: "zlib is out of memory")
    static let corruptData = Self(code: Z_DATA_ERROR, message: "corrupt deflate data")
    /// Inflating would produce more bytes than allowed (a deflate bomb or an oversized message).
    static let outputLimitExceeded = Self(code: Z_BUF_ERROR, message: "inflated data over the limit")

    /// The error for a zlib return code other than `Z_OK`.
    static func from(_ code: Int32) -> ZlibError {
        switch code {
        case Z_MEM_ERROR: .outOfMemory
        case Z_DATA_ERROR, Z_NEED_DICT: .corruptData
        case Z_STREAM_ERROR: .invalidParameters
        default: ZlibError(code: code, message: "zlib error \(code)")
        }
    }
}
