#if canImport(Glibc)
    import Glibc
#endif

/// Polls `condition` every 10 ms until it holds or `seconds` pass; returns whether it held. For state that settles
/// asynchronously (a queue hop, a peer's answer), never to measure how long something took.
public func eventually(within seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}

/// ``eventually(within:_:)`` for synchronous tests: blocks the calling thread between polls.
public func eventuallyBlocking(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
