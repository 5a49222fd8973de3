// Connection churn: a fresh server child accepts many short connections, and its open descriptors, resident
// memory and thread count are sampled before, during and after, to show that every close path releases what the
// connection held.
//
// Plain (HTTP over raw sockets), per 64 connections:
//   61 × GET with keep-alive, read the whole response, client closes first (FIN)
//    1 × GET with `Connection: close`, read to EOF (the server closes first)
//    1 × GET, then an abortive close (SO_LINGER 0 → RST) without reading the response
//    1 × connect and close at once, no request
// TLS, per 32 connections (ClientConnection: full handshake, no session resumption):
//   29 × handshake, GET, read the whole response, close_notify + close
//    1 × handshake, close_notify + close, no request
//    1 × handshake, GET, close without reading the response
//    1 × TCP connect and close at once, no ClientHello (the server's handshake sees EOF)

import Dispatch
import Foundation
import RollboardNet
import RollboardClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

struct ChurnOptions {
    var plainCount = 1_000_000
    var tlsCount = 50_000
    /// Each churn run stops after this long even if its count is not reached.
    var seconds = 480.0
    var threads = 2
    /// `mix` (the default, described at the top of the file) or `simple` (only the common case: request,
    /// response, client closes first).
    var mix = "mix"
}

final class ChurnState: Sendable {
    let claimed = Atomic<Int>(0)
    let completed = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let firstError = Mutex<String?>(nil)

    func fail(_ text: String) {
        failures.wrappingAdd(1, ordering: .relaxed)
        firstError.withLock { if $0 == nil { $0 = text } }
    }
}

/// Open descriptors of a process, from /proc/PID/fd.
func descriptorCount(of pid: Int32) -> Int {
    guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0[0] == UInt8(ascii: ".") }
        if !isDot { count += 1 }
    }
    return count
}

/// Threads of a process, from /proc/PID/status.
func threadCount(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        return Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
    }
    return 0
}

/// A blocking IPv4 TCP connection to 127.0.0.1:`port` with 5 s send/receive timeouts.
func rawConnect(port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchmarkError("socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    if status != 0 {
        let error = errno
        close(fd)
        throw BenchmarkError("connect: errno \(error)")
    }
    return fd
}

func rawSend(_ fd: Int32, _ text: String) throws {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
        if written <= 0 { throw BenchmarkError("send: errno \(errno)") }
        offset += written
    }
}

/// Reads one HTTP response with a Content-Length body (or, with `untilEOF`, everything up to the server's close).
func rawReadResponse(_ fd: Int32, untilEOF: Bool) throws {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 4096, 0) }
        if count < 0 { throw BenchmarkError("recv: errno \(errno)") }
        if count == 0 {
            if untilEOF, !buffer.isEmpty { return }
            throw BenchmarkError("closed before the response")
        }
        buffer += chunk[..<count]
        if untilEOF { continue }
        guard let end = buffer.firstRange(of: [13, 10, 13, 10]) else { continue }
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if buffer.count >= end.upperBound + length { return }
    }
}

/// One plain connection of the mix described at the top of the file.
func plainCycle(port: Int, index: Int, simple: Bool) throws {
    let fd = try rawConnect(port: port)
    defer { close(fd) }
    switch simple ? 63 : index % 64 {
    case 0:
        try rawSend(fd, "GET /churn HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        try rawReadResponse(fd, untilEOF: true)
    case 1:
        try rawSend(fd, "GET /churn HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    case 2:
        break
    default:
        try rawSend(fd, "GET /churn HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try rawReadResponse(fd, untilEOF: false)
    }
}

/// One TLS connection of the mix described at the top of the file.
func tlsCycle(port: Int, index: Int, simple: Bool) throws {
    let index = simple ? 31 : index
    if index % 32 == 3 {
        close(try rawConnect(port: port))
        return
    }
    let connection = try ClientConnection(
        host: "127.0.0.1", port: port, tls: ClientTLSOptions(verifiesCertificate: false), timeout: 5)
    defer { connection.close() }
    switch index % 32 {
    case 1:
        return
    case 2:
        try connection.write(Array("GET /churn HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    default:
        try connection.write(Array("GET /churn HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        var buffer: [UInt8] = []
        while true {
            let bytes = try connection.read(maximum: 4096)
            if bytes.isEmpty { throw BenchmarkError("TLS: closed before the response") }
            buffer += bytes
            if let end = buffer.firstRange(of: [13, 10, 13, 10]), buffer.count >= end.upperBound + 2 { break }
        }
    }
}

/// Runs one churn against a fresh server child and prints the descriptor / memory curve.
func runChurn(tls: Bool, options: ChurnOptions) throws {
    let total = tls ? options.tlsCount : options.plainCount
    let server = try startServer(ServeOptions(plain: !tls))
    defer { stopServer(server) }
    let pid = server.0.processIdentifier
    let port = server.1
    let state = ChurnState()
    let simple = options.mix == "simple"
    let name = tls ? "TLS" : "plain"
    print("\n\(name) churn: up to \(total) connections or \(Int(options.seconds)) s, \(options.threads) client threads, "
        + "\(simple ? "simple cycles only" : "mixed close paths"), server pid \(pid)")
    print("  elapsed_s   connects   rate/s   server_fds   server_rss_MiB   threads   failures")
    func sample(_ label: String, elapsed: Double, done: Int, rate: Double) {
        let padded = String(repeating: " ", count: max(0, 11 - label.count)) + label
        print(padded + String(
            format: " %10d %8.0f %12d %16.1f %9d %10d", done, rate, descriptorCount(of: pid),
            Double(residentBytes(of: pid)) / 1_048_576, threadCount(of: pid),
            state.failures.load(ordering: .relaxed)))
    }
    sample("before", elapsed: 0, done: 0, rate: 0)
    let group = DispatchGroup()
    let start = ContinuousClock.now
    for _ in 0..<options.threads {
        group.enter()
        Thread.detachNewThread {
            while !state.stop.load(ordering: .relaxed) {
                let index = state.claimed.wrappingAdd(1, ordering: .relaxed).oldValue
                if index >= total { break }
                do {
                    if tls {
                        try tlsCycle(port: port, index: index, simple: simple)
                    } else {
                        try plainCycle(port: port, index: index, simple: simple)
                    }
                    state.completed.wrappingAdd(1, ordering: .relaxed)
                } catch {
                    state.fail("\(error)")
                    usleep(10_000)
                }
            }
            group.leave()
        }
    }
    let interval = 10.0
    var lastDone = 0
    var lastTime = 0.0
    while group.wait(timeout: .now() + interval) == .timedOut {
        let elapsed = seconds(since: start)
        let done = state.completed.load(ordering: .relaxed)
        sample(format(elapsed), elapsed: elapsed, done: done, rate: Double(done - lastDone) / (elapsed - lastTime))
        lastDone = done
        lastTime = elapsed
        if elapsed >= options.seconds { state.stop.store(true, ordering: .relaxed) }
        if !server.0.isRunning {
            print("  SERVER CHILD DIED (status \(server.0.terminationStatus), reason \(server.0.terminationReason.rawValue)) "
                + "after about \(done) connections")
            state.stop.store(true, ordering: .relaxed)
        }
    }
    let elapsed = seconds(since: start)
    let done = state.completed.load(ordering: .relaxed)
    sample("end " + format(elapsed), elapsed: elapsed, done: done, rate: Double(done) / elapsed)
    sleep(1)
    sample("end+1s", elapsed: elapsed, done: done, rate: 0)
    sleep(6)
    sample("end+7s", elapsed: elapsed, done: done, rate: 0)
    print("  \(name) churn: \(done) connections in \(format(elapsed)) s = \(format(Double(done) / elapsed)) /s, "
        + "\(state.failures.load(ordering: .relaxed)) failures"
        + (state.firstError.withLock { $0 }.map { " (first: \($0))" } ?? ""))
}
