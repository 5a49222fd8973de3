import NIOCore
import ServiceLifecycle
import Synchronization

/// The broadcast registry and its one shared frame timer.
///
/// Each WebSocket connection ``subscribe()``s and gets its own `AsyncStream` of frames, which its handler drains
/// into its own outbound writer; ``unsubscribe(_:)`` removes it when the connection ends. ``run()`` is the single
/// timer for all connections: at every tick it takes the next frame of the script (wrapping after the last) and
/// yields that same buffer to every registered stream.
///
/// Runs as a `Service` of the Hummingbird `Application`, so it starts with the server and stops at graceful
/// shutdown, finishing every stream so that the connection handlers return and close their WebSockets.
final class Broadcaster: Service, Sendable {
    /// Frames a connection's stream holds while its writer is blocked (one second at 30 fps); past that the oldest
    /// are dropped, so a slow screen skips frames instead of holding an ever-growing queue.
    static let backlog = 30

    /// The registered connections and the next id to hand out.
    private struct Registry {
        var nextID = 0
        var streams: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        /// Set once the timer has stopped: late subscribers get a finished stream.
        var closed = false
    }

    private let registry = Mutex(Registry())
    /// The frames, in order, from the frames file.
    let frames: [ByteBuffer]
    /// Time between two broadcasts.
    let interval: Duration

    /// - Parameters:
    ///   - frames: the frames to broadcast in turn; must not be empty.
    ///   - fps: broadcasts per second.
    init(frames: [ByteBuffer], fps: Double) {
        precondition(!frames.isEmpty, "no frames to broadcast")
        self.frames = frames
        self.interval = .nanoseconds(Int64((1e9 / fps).rounded()))
    }

    /// Registers a connection: returns its id (for ``unsubscribe(_:)``) and the stream of frames meant for it.
    func subscribe() -> (id: Int, frames: AsyncStream<ByteBuffer>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(Self.backlog))
        let id = registry.withLock { registry -> Int in
            let id = registry.nextID
            registry.nextID += 1
            if registry.closed {
                continuation.finish()
            } else {
                registry.streams[id] = continuation
            }
            return id
        }
        return (id, stream)
    }

    /// Removes a connection that has gone; does nothing if it is already removed.
    func unsubscribe(_ id: Int) {
        let continuation = registry.withLock { $0.streams.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// Yields `frame` to every registered connection.
    func broadcast(_ frame: ByteBuffer) {
        registry.withLock { registry in
            for continuation in registry.streams.values { continuation.yield(frame) }
        }
    }

    /// The shared timer: one frame every ``interval`` until graceful shutdown or cancellation.
    ///
    /// Ticks are scheduled on absolute deadlines so the rate does not drift; if the timer falls more than a tick
    /// behind (a stalled machine), it skips ahead rather than sending a burst.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            let clock = ContinuousClock()
            var deadline = clock.now
            var index = 0
            while !Task.isCancelled {
                deadline += self.interval
                do {
                    try await Task.sleep(until: deadline, clock: clock)
                } catch {
                    break
                }
                self.broadcast(self.frames[index])
                index = index + 1 == self.frames.count ? 0 : index + 1
                let now = clock.now
                if now - deadline > self.interval { deadline = now }
            }
        }
        let streams = registry.withLock { registry in
            registry.closed = true
            defer { registry.streams.removeAll() }
            return Array(registry.streams.values)
        }
        for continuation in streams { continuation.finish() }
    }
}
