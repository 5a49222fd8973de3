/// How the server offers and uses permessage-deflate (RFC 7692).
///
/// By default the server compresses each message with a fresh context (it announces
/// `server_no_context_takeover`), so compressed bytes can be shared between connections and no
/// compressor state outlives a send; with `allowsServerContextTakeover` it leaves the client's window
/// alone so messages of a ``BroadcastStream`` can be coded against the stream's earlier messages (the
/// server still keeps no compressor per connection). By default it also asks clients not to keep
/// theirs, so an idle connection holds no zlib state at all.
///
/// zlib's memory for one compression is `(1 << (serverMaxWindowBits + 2)) + (1 << (memoryLevel + 9))`
/// plus about 6 KiB: 102 KiB with the defaults (13, 7), 262 KiB with zlib's usual (15, 8). The
/// defaults keep each transient compressor small and cheap to set up; an 8 KiB window loses nothing
/// on dashboard messages, which are shorter than that.
public struct PerMessageDeflateConfiguration: Sendable, Equatable {
    /// The largest LZ77 window the server compresses with, 9...15 (a peer may ask for less).
    public var serverMaxWindowBits: Int
    /// The window the server asks clients to compress with, 8...15, when the client allows it to ask.
    public var clientMaxWindowBits: Int
    /// zlib memory level for compression, 1...9 (more memory, slightly better and faster compression).
    public var memoryLevel: Int
    /// zlib compression level, 0...9.
    public var compressionLevel: Int
    /// Whether the server asks clients to compress each message with a fresh context, so no
    /// decompressor state is kept between messages.
    public var requestsClientNoContextTakeover: Bool
    /// Messages shorter than this are sent uncompressed; 0 compresses every message, even when that
    /// does not make it smaller.
    public var minimumCompressedBytes: Int
    /// Whether the server may keep a compression context across messages (for ``BroadcastStream``s): the
    /// handshake then names `server_no_context_takeover` only when the client asks for it.
    public var allowsServerContextTakeover: Bool

    public init(
        serverMaxWindowBits: Int = 13,
        clientMaxWindowBits: Int = 15,
        memoryLevel: Int = 7,
        compressionLevel: Int = 6,
        requestsClientNoContextTakeover: Bool = true,
        minimumCompressedBytes: Int = 64,
        allowsServerContextTakeover: Bool = false
    ) {
        precondition((9...15).contains(serverMaxWindowBits), "serverMaxWindowBits must be 9...15")
        precondition((8...15).contains(clientMaxWindowBits), "clientMaxWindowBits must be 8...15")
        precondition((1...9).contains(memoryLevel), "memoryLevel must be 1...9")
        precondition((0...9).contains(compressionLevel), "compressionLevel must be 0...9")
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
        self.memoryLevel = memoryLevel
        self.compressionLevel = compressionLevel
        self.requestsClientNoContextTakeover = requestsClientNoContextTakeover
        self.minimumCompressedBytes = minimumCompressedBytes
        self.allowsServerContextTakeover = allowsServerContextTakeover
    }
}
