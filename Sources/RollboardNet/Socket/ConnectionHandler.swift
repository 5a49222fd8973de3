/// The protocol layer running on a `Connection` (HTTP/1.1 first, then possibly WebSocket).
///
/// Every call arrives on the connection's queue. An outbound connection's handler (e.g. the Redis client's) hears
/// `connectionDidConnect` when its TCP connect succeeds, and reads `connection.failure` in `connectionDidClose`.
package protocol ConnectionHandler: AnyObject {
    /// An outbound TCP connect succeeded (the TLS handshake, if any, comes next).
    func connectionDidConnect(_ connection: Connection)
    /// The transport is ready (TLS handshake complete, or at once in plain mode).
    func connectionDidBecomeActive(_ connection: Connection)
    /// Application bytes arrived; the buffer is valid only during the call.
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer will send nothing more (FIN or close_notify).
    func connectionDidReadEOF(_ connection: Connection)
    /// Buffered outbound bytes fell below the low watermark.
    func connectionDidDrain(_ connection: Connection)
    /// Periodic tick from the loop's shared timer, for timeouts and keepalive.
    func connection(_ connection: Connection, tick now: ContinuousClock.Instant)
    /// The server is shutting down: finish politely and close.
    func connectionShouldShutDown(_ connection: Connection)
    /// The connection is closed; release everything.
    func connectionDidClose(_ connection: Connection)
}

extension ConnectionHandler {
    /// Accepted connections have no connect to report.
    package func connectionDidConnect(_ connection: Connection) {}
}
