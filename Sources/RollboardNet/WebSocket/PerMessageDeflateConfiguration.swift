/// How the server offers and uses permessage-deflate (RFC 7692).
///
/// The server always compresses each message with a fresh context (it announces
/// `server_no_context_takeover`), so compressed bytes can be shared between connections and no
/// compressor state outlives a send.
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
    /// Messages shorter than this are sent uncompressed.
    public var minimumCompressedBytes: Int

    public init(
        serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15,
        memoryLevel: Int = 8,
        compressionLevel: Int = 6,
        requestsClientNoContextTakeover: Bool = true,
        minimumCompressedBytes: Int = 64
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
    }
}
