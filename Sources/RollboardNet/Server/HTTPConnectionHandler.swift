import Logging
import Synchronization

/// HTTP/1.1 on one connection: parses requests, hands them to the `ServerHandler`, writes the responses in
/// request order (even when they arrive out of order from other queues), enforces the request and idle
/// timeouts, and switches to WebSocket on an accepted upgrade.
///
/// Pipelined requests are taken from the parser only while the connection is writable and fewer than
/// `maxPipelinedRequests` responses are pending, so a peer that sends requests without reading the answers
/// holds at most about the high watermark plus one response in memory; taking resumes when the connection
/// drains. Responses on a TLS connection carry `Strict-Transport-Security`.
///
/// Confined to the connection's queue.
final class HTTPConnectionHandler: ConnectionHandler {
    /// A request whose response is awaited (or ready but waiting for the ones before it).
    private struct Pending {
        let id: Int
        let headOnly: Bool
        let keepAlive: Bool
        var response: HTTPResponse?
    }

    private let context: ServerContext
    private var parser: HTTPRequestParser
    private var pending: [Pending] = []
    private var nextID = 0
    /// An upgrade request waiting for the responses before it to go out.
    private var deferredUpgrade: HTTPRequest?
    /// No further requests are read; the connection closes once `pending` is written.
    private var isFinishing = false
    /// When the first byte of the request being received arrived.
    private var requestStartedAt: ContinuousClock.Instant?
    private var lastActivity = ContinuousClock.now
    /// Set while `processRequests` runs, so a response completed synchronously inside it does not re-enter it.
    private var isProcessing = false

    init(context: ServerContext) {
        self.context = context
        self.parser = HTTPRequestParser(limits: context.configuration.http)
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        lastActivity = .now
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        lastActivity = .now
        guard !isFinishing else { return }
        if requestStartedAt == nil { requestStartedAt = lastActivity }
        parser.feed(bytes)
        processRequests(connection)
    }

    /// Takes requests from the parser while the connection can take their responses.
    private func processRequests(_ connection: Connection) {
        guard !isProcessing else { return }
        isProcessing = true
        defer { isProcessing = false }
        while !isFinishing, deferredUpgrade == nil, connection.isWritable,
            pending.count < context.configuration.maxPipelinedRequests
        {
            let request: HTTPRequest
            do {
                guard let next = try parser.next() else { break }
                request = next
            } catch {
                finish(with: error.response, connection)
                break
            }
            requestStartedAt = parser.hasPartialRequest ? .now : nil
            if request.headers.containsToken("websocket", in: "Upgrade") {
                if pending.isEmpty {
                    upgrade(request, connection)
                } else {
                    deferredUpgrade = request
                    connection.setReading(false)
                }
                return
            }
            dispatch(request, connection)
        }
        let hasRoom = pending.count < context.configuration.maxPipelinedRequests
        if !connection.isWritable || !hasRoom {
            requestStartedAt = nil  // what is buffered waits on us, not on the peer; the clock restarts when taken
        }
        connection.setReading(hasRoom && deferredUpgrade == nil)
    }

    /// Hands `request` to the server handler; its response may come from any queue, exactly once.
    private func dispatch(_ request: HTTPRequest, _ connection: Connection) {
        var request = request
        request.remoteAddress = connection.peerAddress?.description
        let id = nextID
        nextID += 1
        let keepAlive = request.keepAlive
        pending.append(Pending(id: id, headOnly: request.method == "HEAD", keepAlive: keepAlive))
        if !keepAlive { isFinishing = true }
        let latch = ResponseLatch()
        let logger = connection.logger
        let path = request.path  // never the query: it may carry a viewer key
        context.handler.handle(request) { response in
            guard latch.claim() else {
                logger.warning("respond called more than once; ignored", metadata: ["path": "\(path)"])
                return
            }
            connection.execute { connection in
                (connection.handler as? HTTPConnectionHandler)?.complete(id, with: response, connection)
            }
        }
    }

    private func complete(_ id: Int, with response: HTTPResponse, _ connection: Connection) {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
        pending[index].response = response
        writeReadyResponses(connection)
    }

    /// Queues a final response (an error, 408) after the pending ones, then closes.
    private func finish(with response: HTTPResponse, _ connection: Connection) {
        isFinishing = true
        deferredUpgrade = nil
        pending.append(Pending(id: nextID, headOnly: false, keepAlive: false, response: response))
        nextID += 1
        writeReadyResponses(connection)
    }

    private func writeReadyResponses(_ connection: Connection) {
        while let first = pending.first, let response = first.response {
            pending.removeFirst()
            let keepAlive = first.keepAlive && !response.headers.containsToken("close", in: "Connection")
            connection.send(
                secured(response, connection).serialized(date: .now(), keepAlive: keepAlive, headOnly: first.headOnly))
            lastActivity = .now
            if !keepAlive {
                isFinishing = true
                pending.removeAll()
                connection.close()
                return
            }
        }
        if pending.isEmpty {
            if isFinishing {
                connection.close()
                return
            }
            if let upgradeRequest = deferredUpgrade {
                deferredUpgrade = nil
                upgrade(upgradeRequest, connection)
                return
            }
        }
        processRequests(connection)
    }

    /// `response` with the headers every response on this connection carries: HSTS under TLS.
    private func secured(_ response: HTTPResponse, _ connection: Connection) -> HTTPResponse {
        guard connection.isSecure, !response.headers.contains("Strict-Transport-Security") else { return response }
        var response = response
        response.headers.add(name: "Strict-Transport-Security", value: Self.strictTransportSecurity)
        return response
    }

    /// Browsers that saw one TLS response use only HTTPS for this host for a year.
    static let strictTransportSecurity = "max-age=31536000"

    /// Validates the handshake, asks the server handler, and on acceptance hands the connection to WebSocket.
    private func upgrade(_ request: HTTPRequest, _ connection: Connection) {
        let handshake: WebSocketHandshake
        do {
            handshake = try WebSocketHandshake(request: request, configuration: context.configuration.webSocket)
        } catch {
            finish(with: error.response, connection)
            return
        }
        switch context.handler.shouldUpgrade(request) {
        case .refuse(let response):
            finish(with: response, connection)
        case .accept(let delegate):
            connection.send(secured(handshake.response, connection).serialized(date: .now(), keepAlive: true))
            let leftover = parser.takeRemainingBytes()
            let socket = WebSocket(request: request, isDeflateNegotiated: handshake.deflate != nil, connection: connection)
            let webSocket = WebSocketConnectionHandler(
                socket: socket, delegate: delegate, configuration: context.configuration.webSocket,
                deflate: handshake.deflate)
            connection.handler = webSocket
            connection.setReading(true)
            webSocket.open(connection, leftover: leftover)
        }
    }

    func connectionDidReadEOF(_ connection: Connection) {
        isFinishing = true
        if pending.isEmpty { connection.close() }
    }

    func connectionDidDrain(_ connection: Connection) {
        processRequests(connection)
    }

    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {
        let configuration = context.configuration
        if let started = requestStartedAt, parser.hasPartialRequest, !isFinishing,
            now - started >= configuration.requestHeadTimeout
        {
            parser = HTTPRequestParser(limits: configuration.http)
            finish(
                with: .error(.requestTimeout, "request timeout", detail: "the request did not arrive in time"),
                connection)
        } else if now - lastActivity >= configuration.idleTimeout,
            !connection.isWritable || (pending.isEmpty && deferredUpgrade == nil && !parser.hasPartialRequest)
        {
            isFinishing = true
            connection.close()
        }
    }

    func connectionShouldShutDown(_ connection: Connection) {
        isFinishing = true
        deferredUpgrade = nil
        if pending.isEmpty { connection.close() }
    }

    func connectionDidClose(_ connection: Connection) {
        pending.removeAll()
    }
}

@available(*, unavailable)
extension HTTPConnectionHandler: Sendable {}

/// Makes a `respond` closure effective exactly once.
private final class ResponseLatch: Sendable {
    private let answered = Atomic<Bool>(false)

    /// True the first time only.
    func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }
}
