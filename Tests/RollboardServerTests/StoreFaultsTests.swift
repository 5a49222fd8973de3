import Foundation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardAPI

@Suite("Store faults")
struct StoreFaultsTests {
    @Test("a specification injects each named fault the given number of times")
    func parses() throws {
        let faults = try #require(try EnvironmentFaults.parse("openNewJournal:EMFILE:2,append:ENOSPC"))
        #expect(throws: Errno(EMFILE)) { try faults.check(.openNewJournal) }
        #expect(throws: Errno(EMFILE)) { try faults.check(.openNewJournal) }
        #expect(throws: Never.self) { try faults.check(.openNewJournal) }
        #expect(throws: Errno(ENOSPC)) { try faults.check(.append) }
        #expect(throws: Never.self) { try faults.check(.sync) }
    }

    @Test("no specification injects nothing")
    func empty() throws {
        #expect(try EnvironmentFaults.parse(nil) == nil)
        #expect(try EnvironmentFaults.parse("") == nil)
    }

    @Test(
        "a specification it cannot read is refused, naming the entry",
        arguments: ["compact:EMFILE", "append:EBADF", "append", "append:EIO:0", "sync:EIO:x"])
    func refuses(_ specification: String) {
        #expect(throws: StoreError.self) { try EnvironmentFaults.parse(specification) }
    }
}
