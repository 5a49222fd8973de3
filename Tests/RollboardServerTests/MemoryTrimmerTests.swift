import CMalloc
import Foundation
import Testing

@testable import RollboardConfig
@testable import RollboardAPI
@testable import RollboardServer

#if canImport(Glibc)
    import Glibc
#endif

/// The allocator settings the server makes before it starts its threads, seen on real blocks of glibc's malloc.
@Suite("Memory trimmer")
struct MemoryTrimmerTests {
    /// A freed mapped block of this size would raise glibc's own threshold to it (the journal compaction's buffers).
    private static let freedBlock = 24 << 20

    #if os(Linux)
        @Test("glibc takes the arena bound and the mapping threshold")
        func allocatorTakesTheSettings() {
            #expect(MemoryTrimmer.configureAllocator(), "mallopt refused a setting, or was never called")
        }

        /// Only in a process of its own (`.ci/run` runs it so, with `ROLLBOARD_ALLOCATOR_ALONE=1`): beside the other
        /// suites, glibc may serve the block from a free chunk another test left in an arena, whatever the threshold.
        @Test(
            "a large block still gets its own mapping after a larger mapped block was freed",
            .enabled(if: ProcessInfo.processInfo.environment["ROLLBOARD_ALLOCATOR_ALONE"] == "1"),
            arguments: [4 << 20, 16 << 20])
        func largeBlocksKeepTheirMapping(size: Int) throws {
            MemoryTrimmer.configureAllocator()
            let freed = try #require(malloc(Self.freedBlock))
            memset(freed, 1, Self.freedBlock)
            free(freed)
            let block = try #require(malloc(size))
            defer { free(block) }
            memset(block, 1, size)
            #expect(
                CMalloc_isMapped(block) == 1,
                "a \(size >> 20) MiB block came from an arena: freed, it stays resident where later blocks fragment it")
        }
    #endif
}
