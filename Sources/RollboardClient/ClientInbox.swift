public import RollboardNet
import Dispatch
import Synchronization

/// What an outbound `Connection` of a `ClientConnection` has delivered, handed from the loop's queue to the
/// caller's thread: each event updates the state under the lock and signals the caller, which waits for it.
///
/// Like a blocking socket, the connection reads only while the caller waits to read: it stops reading once bytes
/// have arrived (and once active), so a caller that does not read pushes back on the server.
final class ClientInbox: ConnectionHandler, @unchecked Sendable {  // All state is behind the Mutex; DispatchSemaphore is thread-safe.
    struct State {
        var isActive = false
        /// The negotiated TLS protocol, read on the queue when the connection became active.
        var tlsVersion: String?
        /// Plaintext received and not yet read.
        var received: [UInt8] = []
        var readEOF = false
        var isClosed = false
        var failure: ConnectionFailure?
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    /// Blocks the calling thread until `ready` returns a value or `deadline` passes (then `nil`). The one wait of
    /// the socket code: for the command-line client and tests on their own thread, never on a loop's queue.
    func wait<Value>(until deadline: DispatchTime, _ ready: (inout State) -> Value?) -> Value? {
        while true {
            if let value = state.withLock({ ready(&$0) }) { return value }
            if signal.wait(timeout: deadline) == .timedOut { return state.withLock { ready(&$0) } }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { change(&$0) }
        signal.signal()
    }

    func connectionDidBecomeActive(_ connection: Connection) {
        connection.setReading(false)
        let version = connection.tlsVersion
        update {
            $0.isActive = true
            $0.tlsVersion = version
        }
    }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        connection.setReading(false)
        update { $0.received.append(contentsOf: bytes) }
    }

    func connectionDidReadEOF(_ connection: Connection) {
        update { $0.readEOF = true }
    }

    func connectionDidDrain(_ connection: Connection) {
        update { _ in }
    }

    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {}

    func connectionShouldShutDown(_ connection: Connection) {
        connection.close()
    }

    func connectionDidClose(_ connection: Connection) {
        let failure = connection.failure
        update {
            $0.isClosed = true
            $0.failure = failure
        }
    }
}
