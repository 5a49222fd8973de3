/// The protocol layer running on a `Connection` (HTTP/1.1 first, then possibly WebSocket).
///
/// Every call arrives on the connection's queue.
protocol ConnectionHandler: AnyObject {
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
