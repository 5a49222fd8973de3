/// A sequence of messages sent as identical bytes to many connections: each message is framed and compressed once,
/// whatever the number of receivers.
///
/// With compression, every message gets two compressed forms: one made with a fresh context (for connections that
/// asked for `server_no_context_takeover` or a smaller window) and one made with the stream's own context, carried
/// from message to message, so a message is coded against the ones before it (the ratio of context takeover for the
/// cost of one compressor per stream, not one per connection). A connection that starts taking the stream's messages
/// part-way must first be sent ``primer()``: a message whose inflated bytes are the stream's recent history, which
/// fills the connection's inflate window with exactly what the next message may refer to.
///
/// Confined to the queue of its owner.
public final class BroadcastStream {
    private let configuration: PerMessageDeflateConfiguration?
    private var fresh: Deflater?
    private var carried: Deflater?
    /// The last bytes fed to `carried`, oldest first, at most one window.
    private var history: [UInt8] = []
    private var cachedPrimer: PreparedMessage?

    /// - Parameter deflate: how messages are compressed; `nil` sends them uncompressed.
    public init(deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()) {
        self.configuration = deflate
    }

    /// The window of the stream's context in bytes.
    private var windowBytes: Int { 1 << max(9, configuration?.serverMaxWindowBits ?? 15) }

    /// The next text message of the stream.
    public func message(text: String) -> PreparedMessage {
        let payload = Array(text.utf8)
        let plain = WebSocketFrameEncoder.frame(.text, payload: payload)
        guard let configuration else {
            return PreparedMessage(
                plainFrame: plain, compressedFrame: nil, sharedContextFrame: nil, windowBits: 15, isPrimer: false)
        }
        let compressed: [UInt8]? =
            if payload.count >= configuration.minimumCompressedBytes,
                let bytes = compress(payload, with: &fresh, keepsContext: false),
                bytes.count < payload.count || configuration.minimumCompressedBytes == 0
            {
                WebSocketFrameEncoder.frame(.text, payload: bytes, isCompressed: true)
            } else {
                nil
            }
        let carriedFrame = compress(payload, with: &carried, keepsContext: true).map {
            WebSocketFrameEncoder.frame(.text, payload: $0, isCompressed: true)
        }
        if carriedFrame == nil {
            history.removeAll()
        } else {
            remember(payload)
        }
        return PreparedMessage(
            plainFrame: plain, compressedFrame: compressed, sharedContextFrame: carriedFrame,
            windowBits: configuration.serverMaxWindowBits, isPrimer: false)
    }

    /// A binary message that brings a connection's inflate window to the stream's context; `nil` when the stream has
    /// no context yet (uncompressed, or nothing sent), so there is nothing to fill. Connections that do not keep the
    /// stream's context are not sent it.
    public func primer() -> PreparedMessage? {
        guard let configuration, !history.isEmpty else { return nil }
        if let cachedPrimer { return cachedPrimer }
        guard let bytes = compress(history, with: &fresh, keepsContext: false) else { return nil }
        let primer = PreparedMessage(
            plainFrame: [], compressedFrame: nil,
            sharedContextFrame: WebSocketFrameEncoder.frame(.binary, payload: bytes, isCompressed: true),
            windowBits: configuration.serverMaxWindowBits, isPrimer: true)
        cachedPrimer = primer
        return primer
    }

    /// The bytes of the stream's recent history that the next message may refer to.
    public var historyByteCount: Int { history.count }

    private func remember(_ payload: [UInt8]) {
        cachedPrimer = nil
        history.append(contentsOf: payload)
        let excess = history.count - windowBytes
        if excess > 0 { history.removeFirst(excess) }
    }

    /// `payload` compressed with `deflater` (made on first use); on failure the deflater is dropped, so the next
    /// message starts a new context that refers to nothing before it.
    private func compress(_ payload: [UInt8], with deflater: inout Deflater?, keepsContext: Bool) -> [UInt8]? {
        guard let configuration else { return nil }
        do {
            if deflater == nil {
                deflater = try Deflater(
                    windowBits: configuration.serverMaxWindowBits, memoryLevel: configuration.memoryLevel,
                    level: configuration.compressionLevel, keepsContext: keepsContext)
            }
            return try deflater!.compress(payload)
        } catch {
            deflater = nil
            return nil
        }
    }
}

@available(*, unavailable)
extension BroadcastStream: Sendable {}
