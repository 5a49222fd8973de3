// An echo server built only on RollboardNet's public API: HTTP GET answers with a short text, WebSocket
// messages are sent straight back. Used by the Autobahn conformance run and the Python interop tests.
//
//   swift run EchoServer --port 9001                        plain ws://
//   swift run EchoServer --port 9443 --tls cert.pem key.pem wss:// with the given certificate
//   swift run EchoServer --port 9443 --self-signed DIR      wss:// with a certificate generated into DIR
//   --max-message-bytes N (default 16 MiB), --no-deflate, --client-context-takeover, --compress-every-message, --host H (default ::)

import Dispatch
import Foundation
import Logging
import RollboardNet

/// Sends every message back as it came.
final class EchoDelegate: WebSocketDelegate {
    func webSocket(_ socket: WebSocket, didReceiveText text: String) {
        socket.send(text: text)
    }

    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {
        socket.send(binary: bytes)
    }

    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {}
}

struct EchoHandler: ServerHandler {
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        respond(HTTPResponse(status: .ok, contentType: "text/plain; charset=utf-8", text: "RollboardNet echo server\n"))
    }

    func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision {
        .accept(EchoDelegate())
    }
}

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EchoServer: \(message)\n".utf8))
    exit(2)
}

var configuration = ServerConfiguration(port: 9001)
configuration.webSocket.maxMessageBytes = 16 << 20
configuration.http.maxBodyBytes = 1 << 20
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--host":
        guard let host = arguments.popFirst() else { usage("--host needs an address") }
        configuration.host = host
    case "--port":
        guard let port = arguments.popFirst().flatMap(Int.init) else { usage("--port needs a number") }
        configuration.port = port
    case "--tls":
        guard let certificate = arguments.popFirst(), let key = arguments.popFirst() else {
            usage("--tls needs a certificate chain file and a key file")
        }
        configuration.tls = TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key)
    case "--self-signed":
        guard let folder = arguments.popFirst() else { usage("--self-signed needs a folder") }
        let tls = TLSConfiguration(certificateChainPath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem")
        do {
            try SelfSignedCertificate.generate(certificatePath: tls.certificateChainPath, privateKeyPath: tls.privateKeyPath)
        } catch {
            usage("\(error)")
        }
        configuration.tls = tls
    case "--max-message-bytes":
        guard let limit = arguments.popFirst().flatMap(Int.init) else { usage("--max-message-bytes needs a number") }
        configuration.webSocket.maxMessageBytes = limit
    case "--client-context-takeover":
        configuration.webSocket.deflate?.requestsClientNoContextTakeover = false
    case "--compress-every-message":
        configuration.webSocket.deflate?.minimumCompressedBytes = 0
    case "--no-deflate":
        configuration.webSocket.deflate = nil
    default:
        usage("unknown option \(flag)")
    }
}
configuration.maxOutboundBytes = max(configuration.maxOutboundBytes, 4 * configuration.webSocket.maxMessageBytes)

var logger = Logger(label: "echo")
logger.logLevel = .warning
let server = Server(configuration: configuration, logger: logger, handler: EchoHandler())
do {
    try server.start()
} catch {
    usage("\(error)")
}
FileHandle.standardOutput.write(Data("listening on port \(server.localPort)\n".utf8))

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
// The first signal shuts the server down; the process ends once it has. The main thread serves the main queue.
let signals = [SIGINT, SIGTERM].map { number in
    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    source.setEventHandler { server.shutdown { exit(0) } }
    source.resume()
    return source
}
withExtendedLifetime(signals) { dispatchMain() }
