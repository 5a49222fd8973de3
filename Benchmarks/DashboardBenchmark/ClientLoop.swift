import COpenSSL
import CZlib

#if canImport(Glibc)
import Glibc
#endif

/// One screen: a non-blocking TLS WebSocket, its bytes not yet parsed, and when it first saw each new target.
final class ScreenClient {
    enum Phase { case idle, connecting, handshaking, upgrading, open, closed }

    let id: Int
    var fd: Int32 = -1
    var ssl: OpaquePointer?
    var phase = Phase.idle
    var buffer: [UInt8] = []
    var offset = 0
    var lastTarget: [UInt8] = []
    /// (target value, monotonic time) for each change of target seen after the hello.
    var targets: [(Double, Double)] = []
    var helloSeen = false
    var framesSeen = 0
    /// When the last frame arrived (for frame intervals).
    var lastFrameAt = 0.0
    /// Frames inside the window, and the longest wait between two of them there (seconds).
    var windowFramesSeen = 0
    var longestGap = 0.0
    /// The screen's inflater, kept between messages when the server keeps its context (no
    /// `server_no_context_takeover`), as a browser's is.
    var inflater: UnsafeMutablePointer<z_stream>?
    var keepsServerContext = false

    init(id: Int) { self.id = id }
}

/// epoll over a set of screens, run by one thread at a time.
final class ClientLoop: @unchecked Sendable {  // Confined to whichever thread runs it; phases never overlap.
    let clients: [ScreenClient]
    let port: Int
    let deflate: Bool
    /// The upgrade request's target, e.g. `/ws?dashboard=moving`.
    let path: String
    /// The tile whose `"target":` changes are timed.
    let latencyTile: [UInt8]
    /// Client 0's text messages, kept when `recording` (hello and frames, decompressed).
    var recording = false
    private(set) var recorded: [String] = []
    /// Frame intervals (seconds) inside the window, over every client.
    private(set) var intervals: [Double] = []
    /// WebSocket bytes (header and payload, as sent) of the frames inside the window.
    private(set) var windowWireBytes = 0
    private let epoll: Int32
    private let context: OpaquePointer
    private var scratch = [UInt8](repeating: 0, count: 65536)
    private var inflated = [UInt8](repeating: 0, count: 262_144)
    private var inflateInput: [UInt8] = []
    private var events = [UInt8](repeating: 0, count: 512 * EPoll.eventSize)
    private var nextToConnect = 0
    private var inFlight = 0
    private(set) var openCount = 0
    private(set) var closedCount = 0
    private(set) var failures: [String] = []
    /// Frames received in [windowStart, windowEnd).
    private(set) var windowFrames = 0
    var windowStart = Double.infinity
    var windowEnd = Double.infinity
    private(set) var deflateNegotiated = 0

    private static let epollIn: UInt32 = 0x001
    private static let epollOut: UInt32 = 0x004

    init(
        clients: [ScreenClient], port: Int, deflate: Bool, context: OpaquePointer, path: String, latencyTile: String
    ) {
        self.clients = clients
        self.port = port
        self.deflate = deflate
        self.path = path
        self.latencyTile = Array("\"\(latencyTile)\":".utf8)
        self.context = context
        epoll = EPoll.create(0)
    }

    deinit {
        for client in clients where client.fd >= 0 { closeClient(client) }
        close(epoll)
    }

    /// Opens every screen (at most `parallel` handshakes at once) and waits for each hello; gives up at `deadline`.
    func connectAll(parallel: Int, deadline: Double) {
        while openCount + closedCount < clients.count, monotonicNow() < deadline {
            while inFlight < parallel, nextToConnect < clients.count {
                startConnect(clients[nextToConnect])
                nextToConnect += 1
            }
            poll(timeoutMilliseconds: 50)
        }
    }

    /// Reads and counts frames until `deadline`.
    func run(until deadline: Double) {
        while monotonicNow() < deadline {
            poll(timeoutMilliseconds: 20)
        }
    }

    func closeAll() {
        for client in clients where client.fd >= 0 { closeClient(client) }
    }

    // MARK: Events

    private func poll(timeoutMilliseconds: Int32) {
        let count = events.withUnsafeMutableBytes { EPoll.wait(epoll, $0.baseAddress, 512, timeoutMilliseconds) }
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let (flags, token) = events.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: index * EPoll.eventSize, as: UInt32.self),
                 raw.loadUnaligned(fromByteOffset: index * EPoll.eventSize + EPoll.dataOffset, as: UInt64.self))
            }
            handle(clients[Int(token)], events: flags)
        }
    }

    private func handle(_ client: ScreenClient, events: UInt32) {
        switch client.phase {
        case .connecting:
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(client.fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return fail(client, "connect: errno \(error)") }
            guard let ssl = SSL_new(context) else { return fail(client, "SSL_new") }
            client.ssl = ssl
            SSL_set_fd(ssl, client.fd)
            client.phase = .handshaking
            handshake(client)
        case .handshaking:
            handshake(client)
        case .upgrading, .open:
            read(client)
        case .idle, .closed:
            break
        }
    }

    private func startConnect(_ client: ScreenClient) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return fail(client, "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        client.fd = fd
        inFlight += 1
        guard status == 0 || errno == EINPROGRESS else { return fail(client, "connect: errno \(errno)") }
        client.phase = .connecting
        EPoll.control(epoll, EPoll.add, fd, events: Self.epollOut, token: UInt64(client.id))
    }

    private func watch(_ client: ScreenClient, _ events: UInt32) {
        EPoll.control(epoll, EPoll.modify, client.fd, events: events, token: UInt64(client.id))
    }

    private func handshake(_ client: ScreenClient) {
        let result = SSL_connect(client.ssl)
        if result == 1 {
            client.phase = .upgrading
            var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            head += "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            if deflate { head += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" }
            head += "\r\n"
            guard write(client, Array(head.utf8)) else { return }
            watch(client, Self.epollIn)
            read(client)
            return
        }
        switch SSL_get_error(client.ssl, result) {
        case SSL_ERROR_WANT_READ: watch(client, Self.epollIn)
        case SSL_ERROR_WANT_WRITE: watch(client, Self.epollOut)
        default: fail(client, "TLS handshake failed")
        }
    }

    /// Writes a small message whole (a fresh connection's socket buffer always takes it).
    private func write(_ client: ScreenClient, _ bytes: [UInt8]) -> Bool {
        let written = bytes.withUnsafeBytes { SSL_write(client.ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(bytes.count) else {
            fail(client, "TLS write returned \(written)")
            return false
        }
        return true
    }

    private func read(_ client: ScreenClient) {
        while client.phase == .upgrading || client.phase == .open {
            let count = scratch.withUnsafeMutableBytes { SSL_read(client.ssl, $0.baseAddress, Int32($0.count)) }
            if count <= 0 {
                let error = SSL_get_error(client.ssl, count)
                if error == SSL_ERROR_WANT_READ { return }
                if error == SSL_ERROR_WANT_WRITE {
                    watch(client, Self.epollIn | Self.epollOut)
                    return
                }
                return fail(client, "closed by the server (SSL error \(error))")
            }
            let now = monotonicNow()
            client.buffer.append(contentsOf: scratch[..<Int(count)])
            if client.phase == .upgrading {
                guard let end = client.buffer.firstRange(of: [13, 10, 13, 10]) else { continue }
                let head = String(decoding: client.buffer[..<end.lowerBound], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else { return fail(client, "upgrade refused: \(head.prefix(80))") }
                if head.lowercased().contains("permessage-deflate") {
                    deflateNegotiated += 1
                    client.keepsServerContext = !head.lowercased().contains("server_no_context_takeover")
                    let inflater = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
                    inflater.initialize(to: z_stream())
                    _ = CZlib_inflateInit2(inflater, -15)
                    client.inflater = inflater
                }
                client.offset = end.upperBound
                client.phase = .open
            }
            parseFrames(client, now: now)
        }
    }

    // MARK: Frames

    private func parseFrames(_ client: ScreenClient, now: Double) {
        var buffer = client.buffer
        client.buffer = []
        defer {
            if client.offset >= buffer.count {
                buffer.removeAll(keepingCapacity: true)
                client.offset = 0
            } else if client.offset > 16384 {
                buffer.removeSubrange(..<client.offset)
                client.offset = 0
            }
            client.buffer = buffer
        }
        while true {
            let available = buffer.count - client.offset
            guard available >= 2 else { return }
            let first = buffer[client.offset]
            let length7 = Int(buffer[client.offset + 1] & 0x7F)
            var header = 2
            var length = length7
            if length7 == 126 {
                guard available >= 4 else { return }
                header = 4
                length = Int(buffer[client.offset + 2]) << 8 | Int(buffer[client.offset + 3])
            } else if length7 == 127 {
                guard available >= 10 else { return }
                header = 10
                length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[client.offset + $1]) }
            }
            guard available >= header + length else { return }
            let start = client.offset + header
            client.offset += header + length
            switch first & 0x0F {
            case 1:
                if now >= windowStart && now < windowEnd { windowWireBytes += header + length }
                if first & 0x40 != 0 {
                    let produced = inflate(client, buffer, start: start, count: length)
                    inflated.withUnsafeBytes { message(client, UnsafeRawBufferPointer(rebasing: $0[..<produced]), now) }
                } else {
                    buffer.withUnsafeBytes {
                        message(client, UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]), now)
                    }
                }
            case 2:
                // A compression primer: inflated into the window, then dropped.
                if first & 0x40 != 0 { _ = inflate(client, buffer, start: start, count: length) }
            case 8:
                return fail(client, "close frame from the server")
            case 9:
                // Answer a keepalive ping with a masked pong (zero mask).
                let payload = Array(buffer[start..<(start + length)])
                _ = write(client, [0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload)
            default:
                break
            }
        }
    }

    /// Inflates one compressed message into `inflated` with the screen's inflater, reset first unless the server
    /// keeps its context.
    private func inflate(_ client: ScreenClient, _ buffer: [UInt8], start: Int, count: Int) -> Int {
        guard let stream = client.inflater else { return 0 }
        inflateInput.removeAll(keepingCapacity: true)
        inflateInput.append(contentsOf: buffer[start..<(start + count)])
        inflateInput.append(contentsOf: [0, 0, 0xFF, 0xFF])
        if !client.keepsServerContext { inflateReset(stream) }
        let capacity = inflated.count
        return inflateInput.withUnsafeMutableBytes { input in
            inflated.withUnsafeMutableBytes { output in
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(input.count)
                stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(capacity)
                let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                if status != Z_OK && status != Z_BUF_ERROR, failures.count < 5 {
                    failures.append("client \(client.id): inflate failed (\(status))")
                }
                return capacity - Int(stream.pointee.avail_out)
            }
        }
    }

    private static let framePrefix = Array(#"{"f":"#.utf8)
    private static let statePrefix = Array(#"{"type":"state""#.utf8)
    private static let helloPrefix = Array(#"{"type":"hello""#.utf8)
    private static let targetKey = Array(#""target":"#.utf8)

    /// Counts a frame (or a state) and notes a new target of the latency tile; the hello marks the screen open.
    private func message(_ client: ScreenClient, _ text: UnsafeRawBufferPointer, _ now: Double) {
        if recording, client.id == 0 { recorded.append(String(decoding: text, as: UTF8.self)) }
        let isFrame = text.starts(with: Self.framePrefix) || text.starts(with: Self.statePrefix)
        if isFrame {
            client.framesSeen += 1
            if now >= windowStart && now < windowEnd {
                windowFrames += 1
                client.windowFramesSeen += 1
                if client.lastFrameAt >= windowStart {
                    intervals.append(now - client.lastFrameAt)
                    client.longestGap = max(client.longestGap, now - client.lastFrameAt)
                }
            }
            client.lastFrameAt = now
        } else if text.starts(with: Self.helloPrefix), !client.helloSeen {
            client.helloSeen = true
            openCount += 1
            inFlight -= 1
        }
        // The tile's entry holds no nested object: its target, if any, is before the entry's first `}`.
        guard let tile = find(latencyTile, in: text), let found = find(Self.targetKey, in: text, from: tile),
            !text[tile..<found].contains(UInt8(ascii: "}"))
        else { return }
        let valueStart = found + Self.targetKey.count
        var valueEnd = valueStart
        while valueEnd < text.count, text[valueEnd] != UInt8(ascii: ","), text[valueEnd] != UInt8(ascii: "}") {
            valueEnd += 1
        }
        let value = text[valueStart..<valueEnd]
        guard !value.elementsEqual(client.lastTarget) else { return }
        client.lastTarget = Array(value)
        if isFrame, let number = Double(String(decoding: value, as: UTF8.self)) {
            client.targets.append((number, now))
        }
    }

    // MARK: Failure and closing

    private func fail(_ client: ScreenClient, _ reason: String) {
        if failures.count < 5 { failures.append("client \(client.id): \(reason)") }
        if client.phase != .open || !client.helloSeen { inFlight -= 1 } else { openCount -= 1 }
        closedCount += 1
        closeClient(client)
    }

    private func closeClient(_ client: ScreenClient) {
        client.phase = .closed
        if let ssl = client.ssl {
            SSL_free(ssl)
            client.ssl = nil
        }
        if client.fd >= 0 {
            close(client.fd)
            client.fd = -1
        }
        if let inflater = client.inflater {
            inflateEnd(inflater)
            inflater.deallocate()
            client.inflater = nil
        }
    }
}

// MARK: epoll through dlsym (Glibc's Swift module does not export <sys/epoll.h>).

/// epoll_create1, epoll_ctl and epoll_wait looked up in libc, with `struct epoll_event` laid out by hand
/// (packed, 12 bytes, on x86_64; 16 bytes elsewhere).
enum EPoll {
    typealias Create = @convention(c) (Int32) -> Int32
    typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    static let add: Int32 = 1
    static let modify: Int32 = 3
    #if arch(x86_64)
    static let eventSize = 12
    static let dataOffset = 4
    #else
    static let eventSize = 16
    static let dataOffset = 8
    #endif

    nonisolated(unsafe) static let create = unsafeBitCast(symbol("epoll_create1"), to: Create.self)
    nonisolated(unsafe) static let control = unsafeBitCast(symbol("epoll_ctl"), to: Control.self)
    nonisolated(unsafe) static let wait = unsafeBitCast(symbol("epoll_wait"), to: Wait.self)

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer {
        guard let handle = dlopen(nil, RTLD_NOW), let pointer = dlsym(handle, name) else {
            fatalError("cannot find \(name) in libc")
        }
        return pointer
    }

    /// epoll_ctl with one event (`events`, data = `token`).
    static func control(_ epoll: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, token: UInt64) {
        var event = [UInt8](repeating: 0, count: eventSize)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: dataOffset, as: UInt64.self)
            _ = control(epoll, operation, fd, raw.baseAddress)
        }
    }
}

/// The first occurrence of `needle` in `haystack` at or after `from`, as an offset.
func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
    guard needle.count <= haystack.count, let base = haystack.baseAddress else { return nil }
    let first = needle[0]
    var start = from
    let last = haystack.count - needle.count
    while start <= last {
        guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return nil }
        let offset = UnsafeRawPointer(hit) - base
        let matches = needle.withUnsafeBytes { memcmp(base + offset, $0.baseAddress!, needle.count) == 0 }
        if matches { return offset }
        start = offset + 1
    }
    return nil
}
