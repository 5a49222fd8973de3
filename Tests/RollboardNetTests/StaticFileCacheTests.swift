import Testing
@testable import RollboardNet

@Suite struct StaticFileCacheTests {
    static func validator(_ size: Int, modified: Int64 = 1) -> StaticFileCache.Validator {
        StaticFileCache.Validator(size: size, modificationSeconds: modified, modificationNanoseconds: 0)
    }

    @Test("a body is read once while its validator holds, and again when it changes")
    func validates() {
        let cache = StaticFileCache(capacityBytes: 100)
        #expect(cache.body(at: "/a", validator: Self.validator(3), read: { [1, 2, 3] }) == [1, 2, 3])
        #expect(cache.body(at: "/a", validator: Self.validator(3), read: { nil }) == [1, 2, 3])
        #expect(cache.diskReads == 1)
        #expect(cache.body(at: "/a", validator: Self.validator(3, modified: 2), read: { [4, 5, 6] }) == [4, 5, 6])
        #expect(cache.body(at: "/a", validator: Self.validator(3, modified: 2), read: { nil }) == [4, 5, 6])
        #expect(cache.diskReads == 2)
    }

    @Test("the least recently used body goes first when the budget is full")
    func evictsLeastRecentlyUsed() {
        let cache = StaticFileCache(capacityBytes: 10)
        _ = cache.body(at: "/a", validator: Self.validator(4), read: { [1, 1, 1, 1] })
        _ = cache.body(at: "/b", validator: Self.validator(4), read: { [2, 2, 2, 2] })
        _ = cache.body(at: "/a", validator: Self.validator(4), read: { nil })
        _ = cache.body(at: "/c", validator: Self.validator(4), read: { [3, 3, 3, 3] })
        #expect(cache.diskReads == 3)
        #expect(cache.body(at: "/a", validator: Self.validator(4), read: { nil }) == [1, 1, 1, 1])
        #expect(cache.body(at: "/c", validator: Self.validator(4), read: { nil }) == [3, 3, 3, 3])
        #expect(cache.body(at: "/b", validator: Self.validator(4), read: { [2, 2, 2, 2] }) == [2, 2, 2, 2])
        #expect(cache.diskReads == 4)
    }

    @Test("bodies larger than the budget, or not of the size stat promised, are not kept")
    func keepsOnlyWhatFits() {
        let cache = StaticFileCache(capacityBytes: 3)
        for _ in 0..<2 {
            _ = cache.body(at: "/big", validator: Self.validator(4), read: { [1, 2, 3, 4] })
            _ = cache.body(at: "/grew", validator: Self.validator(1), read: { [1, 2] })
        }
        #expect(cache.diskReads == 4)
        let none = StaticFileCache(capacityBytes: 0)
        _ = none.body(at: "/a", validator: Self.validator(1), read: { [1] })
        _ = none.body(at: "/a", validator: Self.validator(1), read: { [1] })
        #expect(none.diskReads == 2)
    }
}
