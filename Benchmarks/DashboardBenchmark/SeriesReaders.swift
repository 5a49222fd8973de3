import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The series-readers load (`--series-readers N`): N clients, each on its own keep-alive TLS connection, read one
/// metric's whole raw series (`seriesPoints` changes, about 65 bytes each: 650 KB for 10,000) page by page through
/// `next`, over and over, while the screens animate; and a probe asks `/healthz` every 20 ms on its own connection.
final class SeriesLoad: Sendable {
    struct Numbers {
        var readers = 0
        var fullReads = 0
        var pages = 0
        var bytes = 0
        var errors: [String] = []
        var pageSeconds: [Double] = []
        var fullReadSeconds: [Double] = []
        var healthSeconds: [Double] = []
    }

    static let metric = "visitors"
    let numbers = Mutex(Numbers())
    private let group = DispatchGroup()

    /// Posts `count` values of ``metric`` in batches of 1,000 (before the screens connect).
    static func seed(_ producer: ProducerConnection, count: Int) throws {
        var posted = 0
        while posted < count {
            let batch = min(1_000, count - posted)
            let updates = (0..<batch).map { #"{"id":"\#(metric)","value":\#((posted + $0) % 90_000)}"# }
            let (status, body) = try producer.request(
                "POST", "/api/v1/metrics", body: #"{"updates":[\#(updates.joined(separator: ","))]}"#)
            guard status.contains("202") else { throw BenchError("seeding the series: \(status) \(body.prefix(200))") }
            posted += batch
        }
    }

    /// Starts `readers` readers and the probe; they run until `end` (monotonic seconds).
    func start(readers: Int, port: Int, end: Double) {
        numbers.withLock { $0.readers = readers }
        for _ in 0..<readers {
            group.enter()
            Thread.detachNewThread { [self] in
                read(port: port, end: end)
                group.leave()
            }
        }
        group.enter()
        Thread.detachNewThread { [self] in
            probe(port: port, end: end)
            group.leave()
        }
    }

    func wait() -> Numbers {
        group.wait()
        return numbers.withLock { $0 }
    }

    private func read(port: Int, end: Double) {
        guard let connection = try? ProducerConnection(port: port) else {
            numbers.withLock { $0.errors.append("a reader could not connect") }
            return
        }
        let first = "/api/v1/metrics/\(Self.metric)/series?from=0"
        while monotonicNow() < end {
            var target: String? = first
            let started = monotonicNow()
            while let path = target, monotonicNow() < end {
                let asked = monotonicNow()
                guard let answer = try? connection.request("GET", path), answer.0.contains("200") else {
                    numbers.withLock { $0.errors.append("a page failed") }
                    return
                }
                let body = answer.1
                let answered = monotonicNow()
                target = Self.next(in: body)
                numbers.withLock {
                    $0.pages += 1
                    $0.bytes += body.utf8.count
                    $0.pageSeconds.append(answered - asked)
                }
            }
            if target == nil {
                let seconds = monotonicNow() - started
                numbers.withLock {
                    $0.fullReads += 1
                    $0.fullReadSeconds.append(seconds)
                }
            }
        }
    }

    /// The answer's `"next"` path, or `nil` when it is `null` (or missing).
    static func next(in body: String) -> String? {
        guard let range = body.range(of: #""next":""#, options: .backwards) else { return nil }
        let rest = body[range.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }

    private func probe(port: Int, end: Double) {
        guard let connection = try? ProducerConnection(port: port) else {
            numbers.withLock { $0.errors.append("the probe could not connect") }
            return
        }
        var due = monotonicNow()
        while monotonicNow() < end {
            let wait = due - monotonicNow()
            if wait > 0 { usleep(useconds_t(wait * 1e6)) }
            let asked = monotonicNow()
            guard let answer = try? connection.request("GET", "/healthz"), answer.0.contains("200") else {
                numbers.withLock { $0.errors.append("a /healthz probe failed") }
                return
            }
            let seconds = monotonicNow() - asked
            numbers.withLock { $0.healthSeconds.append(seconds) }
            due = max(due + 0.02, asked)
        }
    }

    /// One line of numbers over `window` seconds.
    static func summary(_ numbers: Numbers, window: Double) -> String {
        let pages = numbers.pageSeconds.sorted()
        let health = numbers.healthSeconds.sorted()
        let full = numbers.fullReadSeconds.sorted()
        func ms(_ value: Double) -> String { String(format: "%.1f", value * 1000) }
        return "series readers \(numbers.readers): \(numbers.fullReads) full reads (\(numbers.pages) pages, "
            + String(format: "%.1f MB/s", Double(numbers.bytes) / window / 1e6)
            + String(format: ", %.0f KB a page", Double(numbers.bytes) / Double(max(numbers.pages, 1)) / 1000)
            + "), page p50/p99 \(ms(percentile(pages, 0.5)))/\(ms(percentile(pages, 0.99))) ms, full read p50 "
            + "\(ms(percentile(full, 0.5))) ms; /healthz p50/p99/max \(ms(percentile(health, 0.5)))/"
            + "\(ms(percentile(health, 0.99)))/\(ms(health.last ?? .nan)) ms (\(health.count) probes)"
            + (numbers.errors.isEmpty ? "" : "; errors: \(numbers.errors.prefix(3).joined(separator: ", "))")
    }
}
