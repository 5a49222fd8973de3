import COpenSSL
import Dispatch
import Foundation
import RollboardNet
import RollboardClient
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

struct BenchmarkOptions {
    var clientCounts = [500, 1000, 3000]
    var deflateModes = [false, true]
    /// Each in turn: `moving`, eight odometers all moving every tick, fed a batch of eight values every `postEvery`
    /// seconds; `demo`, the six-tile dashboard with one odometer posted to; `context`, four odometers, a gauge and a
    /// chart fed a batch and a ten-row leaderboard reshuffled every `postEvery` seconds.
    var scenarios = ["moving"]
    /// Seconds of posting (one POST every `postEvery` seconds).
    var duration = 20
    var runs = 1
    var clientThreads = 1
    /// The `interval` of each POST: how long the odometers animate after each change (the whole move).
    var animationSeconds = 1.0
    /// Seconds between two POSTs. At 1 s with a 1 s interval the odometer never rests and each change starts as the
    /// previous one ends; at 3 s each change starts at once and the tile rests between changes.
    var postEvery = 1.0
    /// A peer server to compare with (`Benchmarks/Peers/HummingbirdBroadcast`'s executable): after each Rollboard
    /// scenario it broadcasts the frames one Rollboard screen received, to as many screens, at 30 fps.
    var peer: String?
    /// Each in turn: how many series readers run beside the screens (see ``SeriesLoad``); 0 runs none.
    var seriesReaders = [0]
    /// The raw changes the readers' metric holds (posted before the screens connect, when some run has readers).
    var seriesPoints = 10_000
}

/// One POST: the value, and when it was sent and acknowledged (202).
struct Post: Sendable {
    let value: Double
    let sent: Double
    let acknowledged: Double
    let status: String
}

/// One scenario's numbers.
struct ScenarioResult {
    var server = "Rollboard"
    var scenario = ""
    var clients = 0
    var deflate = false
    var run = 0
    var opened = 0
    var connectSeconds = 0.0
    var rssPerConnectionKiB = 0.0
    var rssMiB = 0.0
    var framesPerSecond = 0.0
    var expectedFramesPerSecond = 0.0
    var ackP50 = 0.0
    var ackP99 = 0.0
    var ackMax = 0.0
    var sendP50 = 0.0
    var sendP99 = 0.0
    var missing = 0
    var serverCPU = 0.0
    var clientCPU = 0.0
    var commitP50 = 0.0
    var serverMetrics = ""
    var failures: [String] = []
    var cpuMicrosecondsPerFrame = 0.0
    var wireBytesPerFrame = 0.0
    var animatingKiBPerScreen = 0.0
    var intervalP99 = 0.0
    /// The slowest screen's frames a second, the median screen's, and the longest gap any screen saw (ms).
    var slowestScreenFPS = 0.0
    var medianScreenFPS = 0.0
    var longestGapMs = 0.0
    /// The series readers' numbers, when they ran.
    var seriesLine = ""
    /// Client 0's hello and frames, when recorded.
    var recorded: [String] = []
}

/// A keep-alive TLS HTTP connection for the producer, reading responses by Content-Length.
final class ProducerConnection {
    let connection: ClientConnection
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        connection = try ClientConnection(host: "127.0.0.1", port: port, tls: ClientTLSOptions(verifiesCertificate: false))
    }

    /// Sends a request and returns the status line and the body.
    func request(_ method: String, _ path: String, body: String? = nil) throws -> (String, String) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(benchmarkToken)\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        try connection.write(Array((head + "\r\n" + (body ?? "")).utf8))
        while true {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                let headText = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                let length = headText.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end.upperBound + length {
                    let body = String(decoding: buffer[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
                    buffer.removeSubrange(..<(end.upperBound + length))
                    return (String(headText.prefix { $0 != "\r" }), body)
                }
            }
            let bytes = try connection.read()
            if bytes.isEmpty { throw BenchError("producer connection closed") }
            buffer += bytes
        }
    }
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}

/// The value of a Prometheus sample line `name VALUE` (first match).
func prometheusValue(_ text: String, _ name: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.split(separator: " ").last ?? "")
    }
    return nil
}

/// One scenario against Rollboard (`framesFile` nil) or against the peer broadcasting `framesFile`.
func runScenario(
    _ scenario: String, clients count: Int, deflate: Bool, run: Int, options: BenchmarkOptions, folder: String,
    framesFile: String? = nil, record: Bool = false, seriesReaders: Int = 0
) throws -> ScenarioResult {
    var result = ScenarioResult()
    result.scenario = scenario
    result.clients = count
    result.deflate = deflate
    result.run = run
    let server: ServerChild
    if let framesFile, let peer = options.peer {
        result.server = "Hummingbird 2 peer"
        server = try ServerChild.startPeer(executable: peer, folder: folder, frames: framesFile, deflate: deflate)
    } else {
        server = try ServerChild.start(folder: folder)
    }
    defer { server.stop() }
    let isPeer = framesFile != nil
    let dashboard = scenario

    guard let context = SSL_CTX_new(TLS_client_method()) else { throw BenchError("SSL_CTX_new") }
    defer { SSL_CTX_free(context) }
    _ = COpenSSL_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)

    let producer = try ProducerConnection(port: server.port)
    _ = try producer.request("GET", "/healthz")
    if !isPeer, options.seriesReaders.contains(where: { $0 > 0 }) {
        try SeriesLoad.seed(producer, count: options.seriesPoints)
    }
    usleep(300_000)
    let rssBefore = residentBytes(of: server.pid)

    // Screens, split over the client threads.
    let threads = min(options.clientThreads, count)
    let loops: [ClientLoop] = (0..<threads).map { thread in
        // Each loop indexes its own clients from 0.
        let mine = (count - thread + threads - 1) / threads
        let screens: [ScreenClient] = (0..<mine).map { ScreenClient(id: $0) }
        let loop = ClientLoop(
            clients: screens, port: server.port, deflate: deflate, context: context,
            path: "/ws?dashboard=\(dashboard)&protocol=2", latencyTile: dashboard == "demo" ? "revenue" : "k1")
        loop.recording = record && thread == 0
        return loop
    }
    let connectStart = monotonicNow()
    let group = DispatchGroup()
    for loop in loops {
        group.enter()
        Thread.detachNewThread {
            loop.connectAll(parallel: 64, deadline: monotonicNow() + 120)
            group.leave()
        }
    }
    group.wait()
    result.connectSeconds = monotonicNow() - connectStart
    result.opened = loops.reduce(0) { $0 + $1.openCount }

    // Settle, then memory per connection.
    let settleEnd = monotonicNow() + 1.5
    for loop in loops {
        group.enter()
        Thread.detachNewThread {
            loop.run(until: settleEnd)
            group.leave()
        }
    }
    group.wait()
    let rssAfter = residentBytes(of: server.pid)
    result.rssMiB = Double(rssAfter) / 1_048_576
    result.rssPerConnectionKiB = Double(rssAfter - rssBefore) / 1024 / Double(max(result.opened, 1))

    // The window: one POST every `postEvery` seconds for `duration` seconds; frames counted from the first POST to one second
    // after the last.
    let posts = Mutex<[Post]>([])
    let firstPost = monotonicNow() + 0.5
    let windowEnd = firstPost + Double(options.duration)
    let runEnd = windowEnd + 1.0
    for loop in loops {
        loop.windowStart = firstPost
        loop.windowEnd = windowEnd
    }
    let serverCPUStart = cpuSeconds(of: server.pid)
    let clientCPUStart = ownCPUSeconds()
    let animation = options.animationSeconds
    let duration = options.duration
    let postEvery = options.postEvery
    let posterDone = DispatchSemaphore(value: 0)
    let seriesLoad = SeriesLoad()
    if seriesReaders > 0 {
        let port = server.port
        let start = firstPost
        Thread.detachNewThread {
            let wait = start - monotonicNow()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) }
            seriesLoad.start(readers: seriesReaders, port: port, end: windowEnd)
        }
    }
    nonisolated(unsafe) let poster = producer
    Thread.detachNewThread {
        for index in 0..<max(1, Int(Double(duration) / postEvery)) where !isPeer {
            let due = firstPost + Double(index) * postEvery
            let wait = due - monotonicNow()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) }
            // Alternating between two bands keeps every change the same size, so each animation is alike.
            let band = index % 2 == 0 ? 1.0 : 6.0
            let sent = monotonicNow()
            let status: String
            let value: Double
            if dashboard != "demo" {
                let count = dashboard == "moving" ? 8 : 4
                let values = (1...count).map { tile in
                    band * 100_000 + Double(tile) * 1111.11 + Double(index) * 123.45
                }
                value = values[0]
                var updates = values.enumerated().map { offset, value in
                    #"{"id":"k\#(offset + 1)","value":\#(String(format: "%.2f", value)),"interval":\#(animation)}"#
                }
                if dashboard == "context" {
                    updates.append(#"{"id":"g1","value":\#(band * 130 + Double(index % 7) * 10),"interval":\#(animation)}"#)
                    updates.append(#"{"id":"c1","value":\#(band * 50 + Double(index % 11)),"interval":\#(animation)}"#)
                    // Ten names, their scores a new permutation of 10…100 every time: the rows change places.
                    let scores = (1...10).map { $0 * 10 }.shuffled()
                    let entries = scores.enumerated().map { #""seller\#($0.offset)":\#($0.element)"# }
                    let board = #"{"entries":{\#(entries.joined(separator: ","))}}"#
                    _ = try? poster.request("POST", "/api/v1/leaderboards/board", body: board)
                }
                let body = #"{"updates":[\#(updates.joined(separator: ","))]}"#
                status = (try? poster.request("POST", "/api/v1/metrics", body: body).0) ?? "failed"
            } else {
                value = band * 200_000 + Double(index) * 1111.11
                let body = #"{"value":\#(String(format: "%.2f", value)),"interval":\#(animation)}"#
                status = (try? poster.request("POST", "/api/v1/metrics/revenue", body: body).0) ?? "failed"
            }
            posts.withLock { $0.append(Post(value: value, sent: sent, acknowledged: monotonicNow(), status: status)) }
        }
        posterDone.signal()
    }
    for loop in loops {
        group.enter()
        Thread.detachNewThread {
            loop.run(until: runEnd)
            group.leave()
        }
    }
    let middle = firstPost + Double(options.duration) / 2 - monotonicNow()
    if middle > 0 { usleep(useconds_t(middle * 1e6)) }
    let rssAnimating = residentBytes(of: server.pid)
    group.wait()
    posterDone.wait()
    result.animatingKiBPerScreen = Double(rssAnimating - rssBefore) / 1024 / Double(max(result.opened, 1))
    let window = windowEnd - firstPost
    result.serverCPU = (cpuSeconds(of: server.pid) - serverCPUStart) / (runEnd - firstPost) * 100
    result.clientCPU = (ownCPUSeconds() - clientCPUStart) / (runEnd - firstPost) * 100
    let frames = loops.reduce(0) { $0 + $1.windowFrames }
    result.framesPerSecond = Double(frames) / window
    result.expectedFramesPerSecond = Double(result.opened) * 30
    // CPU over [first POST, run end]; frames counted over the window, scaled to the same length.
    result.cpuMicrosecondsPerFrame =
        (cpuSeconds(of: server.pid) - serverCPUStart) / max(result.framesPerSecond * (runEnd - firstPost), 1) * 1e6
    result.wireBytesPerFrame = Double(loops.reduce(0) { $0 + $1.windowWireBytes }) / Double(max(frames, 1))
    if seriesReaders > 0 {
        result.seriesLine = SeriesLoad.summary(seriesLoad.wait(), window: windowEnd - firstPost)
    }
    let screens = loops.flatMap(\.clients).filter(\.helloSeen)
    let perScreen = screens.map { Double($0.windowFramesSeen) / window }.sorted()
    result.slowestScreenFPS = perScreen.first ?? 0
    result.medianScreenFPS = percentile(perScreen, 0.5)
    result.longestGapMs = (screens.map(\.longestGap).max() ?? 0) * 1000
    let intervals = loops.flatMap(\.intervals).sorted()
    result.intervalP99 = percentile(intervals, 0.99) * 1000
    result.recorded = loops.first?.recorded ?? []
    result.failures = loops.flatMap { $0.failures }
    let deflated = loops.reduce(0) { $0 + $1.deflateNegotiated }
    if deflate && deflated != result.opened { result.failures.append("deflate negotiated on \(deflated) only") }

    // Latency: for each POST and each screen, the first frame carrying the posted value as its target.
    let done = posts.withLock { $0 }
    let badPosts = done.filter { !$0.status.contains("202") }
    if !badPosts.isEmpty { result.failures.append("\(badPosts.count) POSTs not 202: \(badPosts[0].status)") }
    var fromAck: [Double] = []
    var fromSend: [Double] = []
    for loop in loops where !isPeer {
        for client in loop.clients where client.helloSeen {
            for post in done {
                if let seen = client.targets.first(where: { abs($0.0 - post.value) < 0.005 }) {
                    fromAck.append(seen.1 - post.acknowledged)
                    fromSend.append(seen.1 - post.sent)
                } else {
                    result.missing += 1
                }
            }
        }
    }
    fromAck.sort()
    fromSend.sort()
    result.ackP50 = percentile(fromAck, 0.5) * 1000
    result.ackP99 = percentile(fromAck, 0.99) * 1000
    result.ackMax = (fromAck.last ?? .nan) * 1000
    result.sendP50 = percentile(fromSend, 0.5) * 1000
    result.sendP99 = percentile(fromSend, 0.99) * 1000

    if !isPeer, let metrics = try? producer.request("GET", "/metrics").1 {
        let sent = prometheusValue(metrics, "rollboard_frames_sent_total") ?? -1
        let skipped = prometheusValue(metrics, "rollboard_frames_skipped_total") ?? -1
        let slow = prometheusValue(metrics, "rollboard_slow_clients_closed_total") ?? -1
        result.serverMetrics = "server: frames_sent_total \(Int(sent)), frames_skipped_total \(Int(skipped)), "
            + "slow_clients_closed_total \(Int(slow))"
        if let sum = prometheusValue(metrics, "rollboard_store_commit_seconds_sum"),
            let commits = prometheusValue(metrics, "rollboard_store_commit_seconds_count"), commits > 0
        {
            result.commitP50 = sum / commits * 1000
        }
    }
    for loop in loops { loop.closeAll() }
    return result
}

func runBenchmark(_ options: BenchmarkOptions) throws {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    signal(SIGPIPE, SIG_IGN)

    let folder = NSTemporaryDirectory() + "dashboard-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try prepareFolder(folder)
    let scenarios: [String: String] = [
        "moving": "8 odometers (8 columns), a batch of 8 values",
        "demo": "6 tiles, one revenue value",
        "context": "4 odometers, a gauge, a chart and a 10-row leaderboard, a batch of 6 values and a reshuffled board",
    ]
    let what = options.scenarios.map { "\($0): \(scenarios[$0] ?? "unknown")" }.joined(separator: "; ")
    print("DashboardBenchmark: \(ProcessInfo.processInfo.activeProcessorCount) cores, loopback TLS, \(what), "
        + "every \(options.postEvery) s for \(options.duration) s (interval \(options.animationSeconds) s), 30 fps, "
        + "\(options.clientThreads) client thread(s)")
    print("fps/screen: frames received per screen per second; µs/frame: server CPU (utime+stime) per delivered frame; "
        + "wire B/frame: WebSocket bytes (header + payload) per frame; KiB/screen: RSS growth per screen, sampled "
        + "mid-window while animating")
    print("")
    let header = [
        "server", "scenario", "clients", "deflate", "run", "opened", "fps/screen", "µs/frame", "wire B/frame", "KiB/screen",
        "post→frame p50/p99 ms", "interval p99 ms", "missed", "srv CPU%", "cli CPU%",
    ]
    print(header.joined(separator: " | "))
    for scenario in options.scenarios {
        for readers in options.seriesReaders {
        for count in options.clientCounts {
            for deflate in options.deflateModes {
                for run in 1...options.runs {
                    // Each scenario starts from an empty store.
                    try? FileManager.default.removeItem(atPath: folder + "/data/store")
                    let result = try runScenario(
                        scenario, clients: count, deflate: deflate, run: run, options: options, folder: folder,
                        record: options.peer != nil, seriesReaders: readers)
                    printRow(result)
                    guard options.peer != nil else { continue }
                    let hello = result.recorded.first { $0.hasPrefix(#"{"type":"hello""#) }
                    let frames = result.recorded.filter { $0.hasPrefix(#"{"f":"#) }
                    guard let hello, !frames.isEmpty else {
                        print("    peer skipped: no frames recorded")
                        continue
                    }
                    let framesFile = folder + "/frames.txt"
                    try ([hello] + frames).joined(separator: "\n").write(
                        toFile: framesFile, atomically: true, encoding: .utf8)
                    printRow(try runScenario(
                        scenario, clients: count, deflate: deflate, run: run, options: options, folder: folder,
                        framesFile: framesFile))
                }
            }
        }
        }
    }
}

/// Prints one scenario's row and its notes.
func printRow(_ result: ScenarioResult) {
    let row = [
        result.server, result.scenario, "\(result.clients)", result.deflate ? "on" : "off", "\(result.run)", "\(result.opened)",
        String(format: "%.1f", result.framesPerSecond / Double(max(result.opened, 1))),
        String(format: "%.1f", result.cpuMicrosecondsPerFrame),
        String(format: "%.0f", result.wireBytesPerFrame),
        String(format: "%.1f", result.animatingKiBPerScreen),
        result.server == "Rollboard" ? String(format: "%.1f / %.1f", result.ackP50, result.ackP99) : "—",
        String(format: "%.1f", result.intervalP99),
        result.server == "Rollboard" ? "\(result.missing)" : "—",
        String(format: "%.0f", result.serverCPU),
        String(format: "%.0f", result.clientCPU),
    ]
    print(row.joined(separator: " | "))
    let screens = String(
        format: "screens: slowest %.1f fps, median %.1f, longest gap between two frames %.0f ms",
        result.slowestScreenFPS, result.medianScreenFPS, result.longestGapMs)
    let notes = [result.serverMetrics, screens, result.seriesLine] + (result.failures.isEmpty ? [] : ["problems: " + result.failures.joined(separator: "; ")])
    let shown = notes.filter { !$0.isEmpty }
    if !shown.isEmpty { print("    " + shown.joined(separator: "; ")) }
}
