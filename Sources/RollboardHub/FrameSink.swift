package import RollboardAccess
package import RollboardConfig
package import RollboardMetrics
package import RollboardNet
package import RollboardStore

/// Where a client session's messages go: a WebSocket in production, a recorder in tests.
package protocol FrameSink: AnyObject, Sendable {
    /// Whether the sink can take another message without growing its backlog past the watermark.
    var isWritable: Bool { get }
    /// Sends one text message.
    func send(text: String)
    /// Sends a message encoded once for many sinks (a stream's frame or primer).
    func send(_ message: PreparedMessage)
    /// Puts the sink in `batch`, which sends one stream message to many sinks the cheapest way their kind allows
    /// (by default one by one, through ``send(_:)``).
    func join(_ batch: inout FrameBatch)
    /// Closes the sink with a WebSocket close code.
    func close(code: WebSocketCloseCode, reason: String)
}

extension FrameSink {
    func join(_ batch: inout FrameBatch) {
        batch.add(sink: self)
    }
}

extension WebSocket: FrameSink {
    /// A WebSocket is sent a batch's message with the others on its event loop, in one hop.
    package func join(_ batch: inout FrameBatch) {
        batch.add(socket: self)
    }
}
