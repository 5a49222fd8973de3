import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWSCompression
import HummingbirdWebSocket
import NIOCore
import NIOSSL
import NIOWebSocket

/// The `HummingbirdBroadcast` executable: a Hummingbird 2 WebSocket server that broadcasts a recorded Rollboard
/// frame sequence, as a peer to compare Rollboard with under the same load client.
///
/// - `GET /ws` (any query string) upgrades to a WebSocket. The connection first gets the hello line, then every
///   frame the shared ``Broadcaster`` timer sends. Its incoming messages are read and ignored.
/// - `GET /healthz` answers 200 `ok`.
///
/// Prints `listening on PORT` to stdout once the server accepts connections; SIGINT or SIGTERM shut it down
/// gracefully (each WebSocket gets a close frame).
@main
struct BroadcastServer {
    static func main() async {
        let options: Options
        do {
            options = try Options(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            let help = error.description.isEmpty
            standardError((help ? "" : "error: \(error.description)\n") + Options.usage + "\n")
            exit(help ? 0 : 64)
        }
        do {
            try await run(options)
        } catch {
            standardError("error: \(error)\n")
            exit(1)
        }
    }

    /// Builds the application from `options` and runs it until SIGINT or SIGTERM.
    static func run(_ options: Options) async throws {
        let script = try FrameScript(path: options.framesPath ?? "")
        let broadcaster = Broadcaster(frames: script.frames, fps: options.fps)
        let hello = script.hello

        let router = Router()
        router.get("/healthz") { _, _ in "ok" }

        // Router paths do not include the query string, so `/ws?dashboard=bench&protocol=2` matches.
        let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
        webSocketRouter.ws("/ws") { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound, hello: hello, broadcaster: broadcaster)
        }

        // `.perMessageDeflate()` with its default settings: context takeover kept on both sides, window 15 bits
        // unless the client asks for less, messages under 256 bytes sent uncompressed.
        let webSocket = WebSocketServerConfiguration(extensions: options.deflate ? [.perMessageDeflate()] : [])
        var server = HTTPServerBuilder.http1WebSocketUpgrade(
            webSocketRouter: webSocketRouter, configuration: .init(ws: webSocket))
        if let certificate = options.certificatePath, let key = options.keyPath {
            server = try .tls(server, tlsConfiguration: tlsConfiguration(certificate: certificate, key: key))
        }

        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(options.host, port: options.port)),
            services: [broadcaster],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                // FileHandle writes straight to the descriptor: nothing is left in a stdio buffer.
                FileHandle.standardOutput.write(Data("listening on \(port)\n".utf8))
            }
        )
        try await app.runService()
    }

    /// One WebSocket connection: the hello, then the broadcast frames until either side closes.
    static func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, hello: ByteBuffer,
        broadcaster: Broadcaster
    ) async throws {
        // Subscribe before the hello so no frame is lost; frames that arrive meanwhile wait in the stream.
        let (id, frames) = broadcaster.subscribe()
        defer { broadcaster.unsubscribe(id) }
        try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: hello)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Incoming messages are ignored; the loop ends when the client closes (pings are answered inside).
                for try await _ in inbound {}
            }
            group.addTask {
                // The shared buffer goes out as one text frame, without re-encoding the text per connection.
                for await frame in frames {
                    try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: frame)))
                }
            }
            // Whichever ends first (client gone, or broadcaster stopped) ends the connection.
            try await group.next()
            group.cancelAll()
        }
    }

    /// A TLS 1.3-only server configuration from a PEM certificate chain and private key.
    static func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv13
        return configuration
    }

    /// Writes `text` to stderr.
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
