import CMalloc
import Dispatch
package import RollboardConfig
package import RollboardCore
package import RollboardStore

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the server's heap close to what it uses: bounds glibc's malloc arenas (one per thread by default, each
/// keeping freed memory), serves large blocks by their own mappings at a fixed threshold, and hands freed memory back
/// to the system now and then, so memory falls back after a burst of connections instead of staying at its peak.
public final class MemoryTrimmer: @unchecked Sendable {  // Sendable: the timer is only configured in init and cancelled in deinit.
    /// Blocks of this many bytes or more get their own mapping: glibc's starting threshold, kept. Left to itself,
    /// glibc raises it to the size of each mapped block freed (up to 32 MiB), so after the first journal compaction
    /// the next compactions' multi-megabyte buffers were carved from the arenas, which stayed fragmented: resident
    /// memory rose by 3–4 MiB a compaction (docs/benchmarks.md, "Where the soak's memory went").
    static let mmapThreshold: Int32 = 128 * 1_024

    /// On the system's monotonic clock (the process's upkeep, not a service of the node).
    private let timer: any ClockTimer

    /// Configures the allocator (see ``configureAllocator()``) and returns free memory every `interval` seconds.
    /// Made before the server starts its threads, so the arena bound holds from the first.
    public init(interval: Double = 10) {
        Self.configureAllocator()
        let clock = NodeClock.system.monotonic
        let timer = clock.makeTimer(DispatchQueue(label: "rollboard.memory-trim", qos: .utility))
        timer.activate { [weak timer] in
            _ = CMalloc_trim()
            timer?.arm(at: clock.now() + interval)
        }
        timer.arm(at: clock.now() + interval)
        self.timer = timer
    }

    /// Bounds the arenas to two per core and fixes the mapping threshold at ``mmapThreshold``; whether glibc took
    /// both (false elsewhere).
    @discardableResult
    static func configureAllocator() -> Bool {
        let arenas = CMalloc_set(CMalloc_arenaLimit, Int32(2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        let threshold = CMalloc_set(CMalloc_mmapThreshold, mmapThreshold)
        return arenas == 1 && threshold == 1
    }

    deinit {
        timer.cancel()
    }
}
