import CMalloc
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the server's heap close to what it uses: bounds glibc's malloc arenas (one per thread by default, each
/// keeping freed memory) and hands freed memory back to the system now and then, so memory falls back after a
/// burst of connections instead of staying at its peak.
final class MemoryTrimmer: @unchecked Sendable {  // Sendable: the timer is only configured in init and cancelled in deinit.
    private let timer: any DispatchSourceTimer

    /// Bounds the arenas to two per core and returns free memory every `interval` seconds.
    init(interval: Double = 10) {
        _ = CMalloc_limitArenas(Int32(2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rollboard.memory-trim", qos: .utility))
        timer.setEventHandler { _ = CMalloc_trim() }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        timer.activate()
    }

    deinit {
        timer.cancel()
    }
}
