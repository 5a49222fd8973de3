/// The body of one transfer as libcurl hands it over, on the thread that performs the transfer only.
final class ResponseSink {
    private(set) var bytes: [UInt8] = []
    /// Set when the body went past `limit` and the transfer was aborted.
    private(set) var overflowed = false
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends `chunk`; `false` (and nothing kept) when it would take the body past the limit.
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count + chunk.count <= limit else {
            overflowed = true
            return false
        }
        bytes.append(contentsOf: chunk)
        return true
    }
}
