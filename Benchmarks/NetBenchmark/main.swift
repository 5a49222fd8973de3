// NetBenchmark: RollboardNet over loopback — TLS handshakes per second, small-message echo throughput with and
// without permessage-deflate, and the server's resident memory per idle TLS WebSocket connection.
//
//   swift build -c release --product NetBenchmark
//   .build/release/NetBenchmark [--connections 1000,10000] [--messages 100000] [--handshakes 2000]
//       [--sections handshakes,echo,idle] [--churn 1000000] [--churn-tls 50000] [--churn-seconds 480]
//       [--churn-threads 2]
//
// Sections: `handshakes`, `echo`, `idle` (memory per idle TLS WebSocket: without deflate, with deflate and an
// uncompressed client message, with deflate and a compressed client message, and the same with client context
// takeover allowed), `churn` (plain) and `churn-tls` (see Churn.swift). `--churn N` / `--churn-tls N` add the
// churn sections; they stop at N connections or after `--churn-seconds`, whichever comes first.
//
// The server runs in a child process (this executable with `serve`), so its resident memory is measured alone.

import Dispatch
import Foundation
import Logging
import RollboardNet
import RollboardClient

#if canImport(Glibc)
import Glibc
#endif

/// Echoes every message back.
final class EchoDelegate: WebSocketDelegate {
    func webSocket(_ socket: WebSocket, didReceiveText text: String) { socket.send(text: text) }
    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) { socket.send(binary: bytes) }
    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String) {}
}

struct EchoHandler: ServerHandler {
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "ok"))
    }

    func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision { .accept(EchoDelegate()) }
}

func raiseDescriptorLimit() {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// How the child server is set up.
struct ServeOptions {
    /// Plain TCP instead of TLS.
    var plain = false
    /// Lets clients keep their compression context (`requestsClientNoContextTakeover = false`).
    var clientContextTakeover = false

    var arguments: [String] {
        (plain ? ["--plain"] : []) + (clientContextTakeover ? ["--client-context-takeover"] : [])
    }
}

/// `serve FOLDER [--plain] [--client-context-takeover]`: an echo server (TLS unless `--plain`) on a free port;
/// prints the port, runs until stdin closes.
func serve(folder: String, options: [String]) throws -> Never {
    raiseDescriptorLimit()
    let tls = options.contains("--plain")
        ? nil : TLSConfiguration(certificateChainPath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem")
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, backlog: 4096, tls: tls)
    configuration.idleTimeout = .seconds(600)
    // The benchmark's own limit: 10,000 idle sockets plus the warm-up one exceed the default of 10,000.
    configuration.maxConnections = 200_000
    configuration.maxConnectionsPerAddress = 0  // every benchmark client comes from 127.0.0.1
    if options.contains("--client-context-takeover") {
        var deflate = PerMessageDeflateConfiguration()
        deflate.requestsClientNoContextTakeover = false
        configuration.webSocket.deflate = deflate
    }
    var logger = Logger(label: "bench")
    logger.logLevel = .error
    let server = Server(configuration: configuration, logger: logger, handler: EchoHandler())
    try server.start()
    FileHandle.standardOutput.write(Data("\(server.localPort)\n".utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    exit(0)
}

/// Resident set size of a process in bytes, from /proc.
func residentBytes(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// A WebSocket over a blocking TLS connection that offers permessage-deflate when asked and counts echoed
/// frames without decoding them (compressed frames need no inflating to be counted).
final class BenchSocket {
    let connection: ClientConnection
    private var buffer: [UInt8] = []
    let deflateNegotiated: Bool
    /// The `Sec-WebSocket-Extensions` value of the 101 response, or empty.
    let extensions: String

    init(port: Int, deflate: Bool) throws {
        connection = try ClientConnection(host: "127.0.0.1", port: port, tls: ClientTLSOptions(verifiesCertificate: false))
        var head = "GET /bench HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if deflate { head += "Sec-WebSocket-Extensions: permessage-deflate\r\n" }
        try connection.write(Array((head + "\r\n").utf8))
        while buffer.firstRange(of: [13, 10, 13, 10]) == nil {
            let bytes = try connection.read()
            if bytes.isEmpty { throw BenchmarkError("closed during the upgrade") }
            buffer += bytes
        }
        let end = buffer.firstRange(of: [13, 10, 13, 10])!
        let response = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        guard response.hasPrefix("HTTP/1.1 101") else { throw BenchmarkError("upgrade refused: \(response)") }
        deflateNegotiated = response.contains("permessage-deflate")
        extensions = response.split(separator: "\r\n")
            .first { $0.lowercased().hasPrefix("sec-websocket-extensions:") }
            .map { String($0.dropFirst("sec-websocket-extensions:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        buffer.removeSubrange(..<end.upperBound)
    }

    /// A masked text frame (mask zero, which is allowed and keeps the payload as it is).
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return frame + [0, 0, 0, 0] + payload
    }

    /// Reads until `count` complete server frames have arrived.
    func readFrames(_ count: Int) throws {
        var seen = 0
        var offset = 0
        while seen < count {
            while let size = frameSize(at: offset), offset + size <= buffer.count {
                offset += size
                seen += 1
                if seen == count { break }
            }
            if seen == count { break }
            buffer.removeSubrange(..<offset)
            offset = 0
            let bytes = try connection.read()
            if bytes.isEmpty { throw BenchmarkError("closed while reading") }
            buffer += bytes
        }
        buffer.removeSubrange(..<offset)
    }

    /// Reads one frame and checks that it is a text or binary message (not a close frame: the server refused
    /// what was sent).
    func expectDataFrame() throws {
        while frameSize(at: 0).map({ $0 > buffer.count }) ?? true {
            let bytes = try connection.read()
            if bytes.isEmpty { throw BenchmarkError("closed while reading") }
            buffer += bytes
        }
        let opcode = buffer[0] & 0x0F
        guard opcode == 1 || opcode == 2 else {
            throw BenchmarkError("expected a data frame, got opcode \(opcode): \(buffer.prefix(64))")
        }
        buffer.removeSubrange(..<frameSize(at: 0)!)
    }

    private func frameSize(at offset: Int) -> Int? {
        guard buffer.count - offset >= 2 else { return nil }
        let length = Int(buffer[offset + 1] & 0x7F)
        switch length {
        case 126:
            guard buffer.count - offset >= 4 else { return nil }
            return 4 + (Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3]))
        case 127:
            guard buffer.count - offset >= 10 else { return nil }
            return 10 + (2..<10).reduce(0) { $0 << 8 | Int(buffer[offset + $1]) }
        default:
            return 2 + length
        }
    }
}

/// A masked (zero mask) text frame with RSV1 set whose payload is this raw-deflate message, made with a fresh
/// context and the `00 00 ff ff` tail stripped (Python: `zlib.compressobj(6, zlib.DEFLATED, -15)`, `Z_SYNC_FLUSH`):
/// `{"type":"carousel","id":"news","action":"hold","page":2,"note":"compressed hello from an idle client"}`
/// (102 bytes, 86 compressed).
let compressedIdleFrame: [UInt8] = {
    let payload: [UInt8] = [
        0x1c, 0xcb, 0x41, 0x0a, 0x80, 0x30, 0x0c, 0x44, 0xd1, 0xab, 0x84, 0xac, 0x5d, 0xb9, 0xf4, 0x36, 0xa1, 0x89,
        0xb6, 0x90, 0x26, 0xa5, 0xad, 0x88, 0x88, 0x77, 0x37, 0xb8, 0x9b, 0x07, 0xf3, 0x1f, 0x9c, 0x77, 0x13, 0xdc,
        0x30, 0x51, 0xf7, 0x73, 0x88, 0xe2, 0x82, 0x85, 0xc3, 0x26, 0xd7, 0x88, 0x4d, 0x69, 0x16, 0xb7, 0x70, 0x76,
        0xe5, 0x70, 0xa3, 0x23, 0xde, 0xeb, 0x82, 0xe6, 0xf3, 0xcf, 0xbc, 0xb6, 0x2e, 0x63, 0x08, 0x43, 0x16, 0x55,
        0x87, 0xbd, 0x7b, 0x05, 0x32, 0x28, 0xac, 0x02, 0x49, 0x8b, 0xd8, 0xc4, 0xf7, 0x03,
    ]
    var frame = BenchSocket.frame(payload)
    frame[0] |= 0x40
    return frame
}()

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }

// MARK: Main

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve", arguments.count >= 2 {
    try serve(folder: arguments[1], options: Array(arguments.dropFirst(2)))
}
var connectionCounts = [1000, 10000]
var messageCount = 100_000
var handshakeCount = 2000
var sections: Set<String> = ["handshakes", "echo", "idle"]
var churnOptions = ChurnOptions()
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch flag {
    case "--connections": connectionCounts = value.split(separator: ",").compactMap { Int($0) }
    case "--messages": messageCount = Int(value) ?? messageCount
    case "--handshakes": handshakeCount = Int(value) ?? handshakeCount
    case "--sections": sections = Set(value.split(separator: ",").map(String.init))
    case "--churn":
        churnOptions.plainCount = Int(value) ?? churnOptions.plainCount
        sections.insert("churn")
    case "--churn-tls":
        churnOptions.tlsCount = Int(value) ?? churnOptions.tlsCount
        sections.insert("churn-tls")
    case "--churn-seconds": churnOptions.seconds = Double(value) ?? churnOptions.seconds
    case "--churn-threads": churnOptions.threads = Int(value) ?? churnOptions.threads
    case "--churn-mix": churnOptions.mix = value
    default:
        FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
        exit(2)
    }
}
raiseDescriptorLimit()
signal(SIGPIPE, SIG_IGN)

let folder = NSTemporaryDirectory() + "netbench-\(getpid())"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
try SelfSignedCertificate.generate(certificatePath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem")

/// Starts a fresh server child process; returns it, its port, and the pipe that keeps it alive.
func startServer(_ options: ServeOptions = ServeOptions()) throws -> (Process, Int, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["serve", folder] + options.arguments
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line += chunk
    }
    guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw BenchmarkError("server did not start")
    }
    return (process, port, input)
}

func stopServer(_ server: (Process, Int, Pipe)) {
    try? server.2.fileHandleForWriting.close()
    server.0.waitUntilExit()
}

print("RollboardNet benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores, loopback, TLS 1.3, one client thread)")

// TLS handshakes per second: connect, handshake, close.
if sections.contains("handshakes") {
    let server = try startServer()
    defer { stopServer(server) }
    for _ in 0..<50 { _ = try ClientConnection(host: "127.0.0.1", port: server.1, tls: ClientTLSOptions(verifiesCertificate: false)) }
    let start = ContinuousClock.now
    for _ in 0..<handshakeCount {
        let connection = try ClientConnection(host: "127.0.0.1", port: server.1, tls: ClientTLSOptions(verifiesCertificate: false))
        connection.close()
    }
    let elapsed = seconds(since: start)
    print("tls handshakes: \(handshakeCount) in \(format(elapsed)) s = \(format(Double(handshakeCount) / elapsed)) handshakes/s")
}

// Small-message echo throughput, 64 messages in flight.
for deflate in [false, true] where sections.contains("echo") {
    let server = try startServer()
    defer { stopServer(server) }
    let socket = try BenchSocket(port: server.1, deflate: deflate)
    let payload = Array(#"{"type":"frame","seq":12345,"tiles":{"revenue":{"digits":[1,2,3.25,4,5]}}}"#.utf8)
    let batch = 64
    let frames = [UInt8](Array(repeating: BenchSocket.frame(payload), count: batch).joined())
    try socket.connection.write(frames)
    try socket.readFrames(batch)
    let start = ContinuousClock.now
    var sent = 0
    while sent < messageCount {
        try socket.connection.write(frames)
        try socket.readFrames(batch)
        sent += batch
    }
    let elapsed = seconds(since: start)
    let rate = Double(sent) / elapsed
    print("echo \(deflate ? "with deflate (negotiated: \(socket.deflateNegotiated))" : "without deflate"): "
        + "\(sent) messages of \(payload.count) B in \(format(elapsed)) s = \(format(rate)) msgs/s, "
        + "\(format(rate * Double(payload.count) / 1e6)) MB/s payload each way")
}

// Resident memory per idle TLS WebSocket connection. Each client sends one message after connecting and waits for
// its echo; in the `compressed` variants that message is compressed (RSV1), so the server's inflater runs.
struct IdleVariant {
    let label: String
    let offersDeflate: Bool
    let sendsCompressed: Bool
    let server: ServeOptions
}
let idleVariants = [
    IdleVariant(label: "no deflate", offersDeflate: false, sendsCompressed: false, server: ServeOptions()),
    IdleVariant(
        label: "deflate, client sends uncompressed", offersDeflate: true, sendsCompressed: false, server: ServeOptions()),
    IdleVariant(
        label: "deflate, client sends compressed (client_no_context_takeover)", offersDeflate: true,
        sendsCompressed: true, server: ServeOptions()),
    IdleVariant(
        label: "deflate, client sends compressed, client context takeover", offersDeflate: true, sendsCompressed: true,
        server: ServeOptions(clientContextTakeover: true)),
]
for variant in idleVariants where sections.contains("idle") {
    for count in connectionCounts {
        let server = try startServer(variant.server)
        defer { stopServer(server) }
        let message = variant.sendsCompressed ? compressedIdleFrame : BenchSocket.frame(Array("hello, idle".utf8))
        let warm = try BenchSocket(port: server.1, deflate: variant.offersDeflate)
        try warm.connection.write(message)
        try warm.expectDataFrame()
        usleep(200_000)
        let before = residentBytes(of: server.0.processIdentifier)
        var sockets: [BenchSocket] = []
        sockets.reserveCapacity(count)
        let start = ContinuousClock.now
        for _ in 0..<count {
            let socket = try BenchSocket(port: server.1, deflate: variant.offersDeflate)
            try socket.connection.write(message)
            try socket.expectDataFrame()
            sockets.append(socket)
        }
        let elapsed = seconds(since: start)
        usleep(500_000)
        let after = residentBytes(of: server.0.processIdentifier)
        let perConnection = Double(after - before) / Double(count)
        print("idle TLS WebSockets, \(variant.label): \(count) connections "
            + "(opened in \(format(elapsed)) s; negotiated: \(warm.extensions.isEmpty ? "none" : warm.extensions)), "
            + "server RSS \(before / 1_048_576) → \(after / 1_048_576) MiB, "
            + "\(format(perConnection / 1024)) KiB per connection")
        for socket in sockets { socket.connection.close() }
        warm.connection.close()
    }
}

if sections.contains("churn") {
    try runChurn(tls: false, options: churnOptions)
}
if sections.contains("churn-tls") {
    try runChurn(tls: true, options: churnOptions)
}
