import Testing
@testable import RollboardNet

@Suite struct ConnectionLimiterTests {
    static let first = PeerAddress(bytes: [192, 0, 2, 1])!
    static let second = PeerAddress(bytes: [192, 0, 2, 2])!
    static let start = ContinuousClock.now

    @Test("an address over its limit is refused while other addresses still get in, and a release lets it back")
    func perAddress() {
        let limiter = ConnectionLimiter(maxConnections: 100, maxConnectionsPerAddress: 2)
        #expect(limiter.admit(Self.first) == .admitted)
        #expect(limiter.admit(Self.first) == .admitted)
        #expect(limiter.admit(Self.first) == .overAddress)
        #expect(limiter.admit(Self.second) == .admitted)
        #expect(limiter.connectionCount(from: Self.first) == 2)
        limiter.release(Self.first)
        #expect(limiter.admit(Self.first) == .admitted)
        #expect(limiter.admit(Self.first) == .overAddress)
    }

    @Test("an IPv4-mapped IPv6 client shares its IPv4 address's count")
    func mappedSharesCount() throws {
        let limiter = ConnectionLimiter(maxConnections: 100, maxConnectionsPerAddress: 1)
        let mapped = try #require(PeerAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1]))
        #expect(limiter.admit(Self.first) == .admitted)
        #expect(limiter.admit(mapped) == .overAddress)
    }

    @Test("the total limit applies to every address, and to connections whose address is unknown")
    func total() {
        let limiter = ConnectionLimiter(maxConnections: 2, maxConnectionsPerAddress: 2)
        #expect(limiter.admit(Self.first) == .admitted)
        #expect(limiter.admit(nil) == .admitted)
        #expect(limiter.admit(Self.second) == .overTotal)
        limiter.release(nil)
        #expect(limiter.admit(Self.second) == .admitted)
    }

    @Test("a per-address limit of 0 means no limit per address")
    func unlimitedPerAddress() {
        let limiter = ConnectionLimiter(maxConnections: 1_000, maxConnectionsPerAddress: 0)
        for _ in 0..<500 { #expect(limiter.admit(Self.first) == .admitted) }
        #expect(limiter.connectionCount(from: Self.first) == 0)
    }

    @Test("refusals are reported on the first one, then at most once per interval with the count since the last report")
    func warningPace() {
        let limiter = ConnectionLimiter(maxConnections: 1, maxConnectionsPerAddress: 0, warningInterval: .seconds(10))
        #expect(limiter.noteRefusal(now: Self.start) == 1)
        for second in 1..<10 {
            #expect(limiter.noteRefusal(now: Self.start + .seconds(second)) == nil)
            #expect(limiter.noteRefusal(now: Self.start + .seconds(second)) == nil)
        }
        #expect(limiter.noteRefusal(now: Self.start + .seconds(10)) == 19)
        #expect(limiter.noteRefusal(now: Self.start + .seconds(11)) == nil)
        #expect(limiter.noteRefusal(now: Self.start + .seconds(60)) == 2)
    }
}
