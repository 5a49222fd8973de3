import Foundation
import Logging
import RollboardNet
import RollboardAPI
import RollboardAccess
import RollboardConfig
import RollboardCore
import RollboardHub
import RollboardServer
import RollboardStore

#if canImport(Glibc)
import Glibc
#endif

let benchmarkToken = "dashboard-benchmark-token-0123456789"

/// The benchmark's dashboard: six tiles (three odometers, two counters, a wheel), no carousel, so the dashboard is
/// idle except for what the producer posts. `revenue` is first, so the first `"target":` of a message is its.
let benchmarkDashboardYAML = """
    id: demo
    title: Benchmark dashboard
    grid:
      columns: 4
      rows: 2
    tiles:
      - id: revenue
        type: odometer
        title: Revenue today
        position: { column: 1, row: 1, width: 2, height: 1 }
        maxColumns: 10
        decimals: 2
        prefix: "$"
      - id: visitors
        type: odometer
        title: Visitors online
        position: { column: 3, row: 1, width: 2, height: 1 }
        columns: 5
      - id: orders
        type: counter
        title: Orders
        position: { column: 1, row: 2 }
        format: "%d"
        grouping: "#,##0"
        easing: easeOut
        duration: 1.5
      - id: conversion
        type: counter
        title: Conversion rate
        position: { column: 2, row: 2 }
        format: "%.2f"
        grouping: "##0.00"
        suffix: " %"
      - id: temperature
        type: odometer
        title: Server room
        position: { column: 3, row: 2 }
        columns: 3
        decimals: 1
      - id: status
        type: wheel
        title: Platform status
        position: { column: 4, row: 2 }
        contents: [Operational, Degraded, Partial outage, Major outage, Maintenance]
        duration: 0.6

    """

/// The scale scenario's dashboard: eight odometers of eight columns (two decimals), kept moving by a batch of eight new
/// values every second, each change moving every column (the values alternate between two bands).
let movingDashboardYAML = """
    id: moving
    title: Eight moving odometers
    grid:
      columns: 4
      rows: 2
    tiles:

    """ + (1...8).map { index in
        """
          - id: k\(index)
            type: odometer
            columns: 8
            decimals: 2

        """
    }.joined()

/// The context scenario's dashboard (issue 22's performance bullet): four odometers as in `moving`, a gauge, a chart
/// of a metric posted every second, and a leaderboard of ten rows whose scores are reshuffled every second.
let contextDashboardYAML = """
    id: context
    title: The story behind the number
    grid:
      columns: 4
      rows: 2
    tiles:

    """ + (1...4).map { index in
        """
          - id: k\(index)
            type: odometer
            columns: 8
            decimals: 2

        """
    }.joined() + """
      - id: g1
        type: gauge
        min: 0
        max: 1000
      - id: trend
        type: chart
        metric: c1
        window: "last 30m"
        step: 1m
      - id: board
        type: leaderboard
        size: 10
        position: { column: 3, row: 2, width: 2, height: 1 }

    """

/// Writes config/server.yaml, config/dashboards/{demo,moving,context}.yaml and a self-signed certificate into `folder`.
func prepareFolder(_ folder: String) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: folder + "/config/dashboards", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
    try manager.createDirectory(atPath: folder + "/public", withIntermediateDirectories: true)
    let server = """
        host: "127.0.0.1"
        port: 0
        dataDirectory: \(folder)/data
        limits:
          maxConnections: 20000
          maxConnectionsPerAddress: 0
          defaultFPS: 30
        """
    try server.write(toFile: folder + "/config/server.yaml", atomically: true, encoding: .utf8)
    try benchmarkDashboardYAML.write(toFile: folder + "/config/dashboards/demo.yaml", atomically: true, encoding: .utf8)
    try movingDashboardYAML.write(toFile: folder + "/config/dashboards/moving.yaml", atomically: true, encoding: .utf8)
    try contextDashboardYAML.write(toFile: folder + "/config/dashboards/context.yaml", atomically: true, encoding: .utf8)
    try SelfSignedCertificate.generate(certificatePath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem")
}

/// `serve FOLDER`: the Rollboard stack as `rollboard serve` wires it, with TLS, on a free port; prints the port and
/// runs until stdin closes.
func serveDashboard(folder: String) throws -> Never {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)

    var logger = Logger(label: "dashboard-benchmark")
    logger.logLevel = .error
    var options = RollboardNode.Options(
        configuration: try RollboardConfiguration.load(directory: folder + "/config"), publicDirectory: folder + "/public",
        tls: TLSConfiguration(certificateChainPath: folder + "/cert.pem", privateKeyPath: folder + "/key.pem"),
        producerTokens: [ProducerToken(token: benchmarkToken)])
    options.listenBacklog = 4096
    let node = try RollboardNode(options, logger: logger)
    try node.start()
    let server = node.server
    FileHandle.standardOutput.write(Data("\(server.localPort)\n".utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    exit(0)
}

/// The server child: process, port, and the pipe whose closing stops it.
struct ServerChild {
    let process: Process
    let port: Int
    let input: Pipe

    var pid: Int32 { process.processIdentifier }

    static func start(folder: String) throws -> ServerChild {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["serve", folder]
        let (input, line) = try launch(process)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("server did not start")
        }
        return ServerChild(process: process, port: port, input: input)
    }

    /// The Hummingbird peer (`Benchmarks/Peers/HummingbirdBroadcast`), broadcasting `frames` over TLS on a free
    /// port.
    static func startPeer(executable: String, folder: String, frames: String, deflate: Bool) throws -> ServerChild {
        var port = 0
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(probe, $0, length)
                _ = getsockname(probe, $0, &length)
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        close(probe)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--port", "\(port)", "--frames", frames, "--fps", "30", "--cert", folder + "/cert.pem", "--key",
            folder + "/key.pem", "--deflate", deflate ? "on" : "off",
        ]
        let (input, line) = try launch(process)
        guard line.hasPrefix("listening") else { throw BenchError("the peer did not start") }
        return ServerChild(process: process, port: port, input: input)
    }

    /// Runs `process` with pipes for stdin and stdout; returns the stdin pipe and the first line it prints.
    private static func launch(_ process: Process) throws -> (Pipe, String) {
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
        return (input, String(decoding: line, as: UTF8.self))
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning, process.arguments?.first == "--port" { process.terminate() }
        process.waitUntilExit()
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Resident set size of a process in bytes.
func residentBytes(of pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
    }
    return 0
}

/// utime + stime of a process in seconds, from /proc/PID/stat.
func cpuSeconds(of pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state); utime is field 14, stime field 15.
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// This process's CPU time (all threads) in seconds.
func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// CLOCK_MONOTONIC in seconds, the one clock of every timestamp in the benchmark.
@inline(__always) func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
