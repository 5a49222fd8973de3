package import RollboardCore
package import RollboardConfig

/// Why the store could not open, or could not make a change durable.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case closed, writeFailed, locked, damaged, io, unreachable, historyLost
    }

    private let kind: Kind
    public let description: String

    private init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The store was closed; nothing more is accepted.
    public static let closed = StoreError(.closed, "the store is closed")

    /// A write or fsync failed. With `retrying`, the failed write left nothing in the journal and the store accepts
    /// changes again once the disk takes writes; otherwise it accepts nothing more until restarted (recovery then
    /// keeps every change that was acknowledged).
    static func writeFailed(_ reason: String, retrying: Bool = false) -> StoreError {
        StoreError(
            .writeFailed,
            "the journal could not be written: \(reason); "
                + (retrying ? "changes are refused until the disk takes writes again" : "restart the server"))
    }

    /// Another process holds the store's lock.
    static func locked(_ directory: String) -> StoreError {
        StoreError(.locked, "\(directory): already in use by another rollboard process")
    }

    /// A store file is not what the store wrote.
    static func damaged(_ path: String, _ reason: String) -> StoreError {
        StoreError(.damaged, "\(path): \(reason)")
    }

    /// A system call failed.
    static func io(_ path: String, _ operation: String, _ error: Errno) -> StoreError {
        StoreError(.io, "\(path): cannot \(operation): \(error)")
    }

    /// The shared change log (Redis) cannot be reached, or refused the change; nothing was accepted locally.
    package static func unreachable(_ reason: String) -> StoreError {
        StoreError(.unreachable, "Redis is unreachable: \(reason); the change was not accepted, try again")
    }

    /// Redis answers but no longer holds this cluster's history (it restarted without its data, was flushed or
    /// replaced): nothing was accepted while the nodes seed it again from what they hold.
    package static func historyLost(_ problem: String) -> StoreError {
        StoreError(
            .historyLost,
            "Redis lost its data; recovering (\(problem)): the nodes are seeding it again from what they hold; the "
                + "change was not accepted, try again in a few seconds (docs/cluster.md, \"Redis lost its data\")")
    }

    /// Whether the shared change log (Redis) is out of reach (the API answers 503 `redis_unavailable`).
    public var isUnreachable: Bool { kind == .unreachable }
    /// Whether Redis answers without this cluster's history (the API answers 503 `redis_history_lost`).
    public var isHistoryLost: Bool { kind == .historyLost }

    /// Whether this is the `closed` error.
    public var isClosed: Bool { kind == .closed }
    /// Whether a write failed after the store was open (the API answers 503).
    public var isWriteFailure: Bool { kind == .writeFailed }
}
