internal import CZlib

/// A `z_stream` on the heap for a ``Deflater`` or an ``Inflater``: set up by its init function, torn down by its end
/// function and freed.
enum ZlibStream {
    /// A new stream that `initialize` (`deflateInit2` or `inflateInit2`) set up; freed again when that fails.
    static func make(_ initialize: (UnsafeMutablePointer<z_stream>) -> Int32) throws(ZlibError)
        -> UnsafeMutablePointer<z_stream>
    {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = initialize(stream)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ZlibError.from(status)
        }
        return stream
    }

    /// Ends `stream` with `end` (`deflateEnd` or `inflateEnd`) and frees it.
    static func free(_ stream: UnsafeMutablePointer<z_stream>, end: (UnsafeMutablePointer<z_stream>) -> Int32) {
        _ = end(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}
