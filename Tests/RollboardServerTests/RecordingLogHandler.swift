import Logging
import RollboardTestSupport

/// A log handler that keeps every message logged through it, each one of ``changes``: a test waits for work that
/// says it is done only in the log (a rename after an import).
struct RecordingLogHandler: LogHandler {
    let messages: Synchronized<[String]>
    let changes: Changes
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        messages.update { $0.append(message.description) }
        changes.changed()
    }
}

extension Logger {
    /// A logger whose messages `handler` records.
    static func recording(_ label: String) -> (logger: Logger, messages: Synchronized<[String]>, changes: Changes) {
        let messages = Synchronized<[String]>([])
        let changes = Changes()
        let logger = Logger(label: label) { _ in RecordingLogHandler(messages: messages, changes: changes) }
        return (logger, messages, changes)
    }
}
