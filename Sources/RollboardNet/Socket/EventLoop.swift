package import Dispatch
import Synchronization

/// One loop queue (there is one per core): it is the queue of every connection on the loop, so their work is
/// serialised on it, and one shared timer ticks every connection registered here instead of a timer per connection.
///
/// Because every connection of the loop runs on this serial queue, no two of them run at once; they share its
/// buffers, and one block can send to many of them.
package final class EventLoop: @unchecked Sendable {  // The buffers are used only by work running on `queue`; the registry is a Mutex.
    package let queue: DispatchQueue
    /// Scratch space for bytes read from a socket.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Scratch space for plaintext decrypted by TLS.
    let plaintextBuffer: UnsafeMutableRawBufferPointer
    /// Scratch space for records encrypted by TLS on their way to a socket.
    let ciphertextBuffer: UnsafeMutableRawBufferPointer
    private let connections = Mutex<[ObjectIdentifier: Connection]>([:])
    private let timer: any DispatchSourceTimer

    static let bufferSize = 64 * 1024
    private static let key = DispatchSpecificKey<ObjectIdentifier>()

    /// Whether the caller runs on this loop's queue.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

    package init(label: String, tickInterval: Duration) {
        queue = DispatchQueue(label: label)
        readBuffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
        plaintextBuffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
        ciphertextBuffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
        timer = DispatchSource.makeTimerSource(queue: queue)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
        let interval = DispatchTimeInterval.nanoseconds(Int(tickInterval.components.seconds * 1_000_000_000
            + tickInterval.components.attoseconds / 1_000_000_000))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in
            self?.tick()
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
        readBuffer.deallocate()
        plaintextBuffer.deallocate()
        ciphertextBuffer.deallocate()
    }

    /// The connection is ticked from now on, and kept alive until `unregister`.
    func register(_ connection: Connection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    func unregister(_ connection: Connection) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    var connectionCount: Int {
        connections.withLock { $0.count }
    }

    /// A snapshot of the registered connections.
    var allConnections: [Connection] {
        connections.withLock { Array($0.values) }
    }

    /// Stops the tick timer (server shutdown).
    package func stop() {
        timer.cancel()
    }

    private func tick() {
        let now = ContinuousClock.now
        for connection in allConnections {
            connection.queue.async { connection.tick(now: now) }
        }
    }
}
