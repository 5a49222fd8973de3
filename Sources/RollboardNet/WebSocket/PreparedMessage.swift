/// A message encoded once and sent as identical bytes to many connections.
///
/// Holds the plain frame and, when compression pays off, a compressed frame made with a fresh
/// context, which every connection that negotiated permessage-deflate with a large enough server
/// window can send unchanged. A message of a ``BroadcastStream`` also holds the frame compressed with
/// the stream's shared context, for the connections that let the server keep its context.
public final class PreparedMessage: Sendable {
    /// The uncompressed frame, for every connection.
    let plainFrame: [UInt8]
    /// The compressed frame (RSV1 set), or `nil` when compression is off or does not make it smaller.
    let compressedFrame: [UInt8]?
    /// The window the compressed frame was made with; a connection may use it if its negotiated server
    /// window (8 counting as 9, see ``Deflater``) is at least this.
    let compressionWindowBits: Int
    /// The frame compressed with a ``BroadcastStream``'s carried context, for connections that keep the stream's
    /// context (no `server_no_context_takeover`, a server window of at least `compressionWindowBits`).
    let sharedContextFrame: [UInt8]?
    /// Whether this is a stream's primer: sent only to connections that take `sharedContextFrame`s.
    let isPrimer: Bool

    /// A text message; `deflate` decides whether and how a compressed form is made.
    public convenience init(text: String, deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()) {
        self.init(opcode: .text, payload: Array(text.utf8), deflate: deflate)
    }

    /// A binary message; `deflate` decides whether and how a compressed form is made.
    public convenience init(
        binary: [UInt8], deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()
    ) {
        self.init(opcode: .binary, payload: binary, deflate: deflate)
    }

    init(opcode: WebSocketOpcode, payload: [UInt8], deflate: PerMessageDeflateConfiguration?) {
        plainFrame = WebSocketFrameEncoder.frame(opcode, payload: payload)
        compressionWindowBits = deflate?.serverMaxWindowBits ?? 15
        compressedFrame = deflate.flatMap { configuration in
            Self.compressedFrame(
                opcode: opcode, payload: payload, configuration: configuration,
                windowBits: configuration.serverMaxWindowBits)
        }
        sharedContextFrame = nil
        isPrimer = false
    }

    /// A message of a broadcast stream, with its frames already made.
    init(
        plainFrame: [UInt8], compressedFrame: [UInt8]?, sharedContextFrame: [UInt8]?, windowBits: Int, isPrimer: Bool
    ) {
        self.plainFrame = plainFrame
        self.compressedFrame = compressedFrame
        self.sharedContextFrame = sharedContextFrame
        self.compressionWindowBits = windowBits
        self.isPrimer = isPrimer
    }

    /// The size of the uncompressed frame in bytes.
    public var frameByteCount: Int { plainFrame.count }

    /// The frame to send on a connection with these negotiated parameters; empty for a primer the connection does
    /// not need.
    func frame(for parameters: PerMessageDeflateParameters?) -> [UInt8] {
        guard let parameters, compressionWindowBits <= parameters.zlibServerWindowBits else {
            return isPrimer ? [] : plainFrame
        }
        if !parameters.serverNoContextTakeover, let sharedContextFrame { return sharedContextFrame }
        if isPrimer { return [] }
        return compressedFrame ?? plainFrame
    }

    /// A compressed frame for `payload`, or `nil` when it is below the minimum size, compression fails,
    /// or the result is not smaller than the plain frame (with a minimum of 0, every message is compressed).
    static func compressedFrame(
        opcode: WebSocketOpcode,
        payload: [UInt8],
        configuration: PerMessageDeflateConfiguration,
        windowBits: Int
    ) -> [UInt8]? {
        guard payload.count >= configuration.minimumCompressedBytes,
            let deflater = try? Deflater(
                windowBits: windowBits, memoryLevel: configuration.memoryLevel, level: configuration.compressionLevel),
            let compressed = try? deflater.compress(payload),
            compressed.count < payload.count || configuration.minimumCompressedBytes == 0
        else { return nil }
        return WebSocketFrameEncoder.frame(opcode, payload: compressed, isCompressed: true)
    }
}
