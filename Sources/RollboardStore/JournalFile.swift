import Dispatch
import Foundation
import Logging
package import RollboardConfig
package import RollboardCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's files: `journal` (appended records), `snapshot` (the compacted state) and `LOCK`.
///
/// Both files start with an 8-byte magic and the store's 8-byte epoch; the snapshot then holds one framed payload
/// (see `StoreModel.snapshotPayload`), the journal framed records (see `StoreChange`).
final class JournalFile: @unchecked Sendable {  // mutable state is touched only on `queue`
    static let journalMagic = Array("RBJOURN1".utf8)
    static let snapshotMagic = Array("RBSNAPS1".utf8)
    static let headerSize = 16

    let directory: String
    let queue: DispatchQueue
    var journalPath: String { directory + "/journal" }
    var snapshotPath: String { directory + "/snapshot" }
    private var lockFD: Int32
    private var journalFD: Int32
    /// The journal's size in bytes.
    private(set) var size: Int
    private let faults: (any JournalFaults)?

    private init(
        directory: String, queue: DispatchQueue, lockFD: Int32, journalFD: Int32, size: Int, faults: (any JournalFaults)?
    ) {
        self.directory = directory
        self.queue = queue
        self.lockFD = lockFD
        self.journalFD = journalFD
        self.size = size
        self.faults = faults
    }

    /// Why a compaction stopped.
    enum CompactionError: Error {
        /// Nothing changed that matters: the journal in use is still the one in the folder, and keeps every record.
        case notCompacted(Errno)
        /// The fresh journal took the old one's place, but the folder could not be synced: the rename may not survive
        /// a crash, so appends to the fresh journal could be lost. The store must refuse further changes.
        case folderNotSynced(Errno)
    }

    deinit {
        if journalFD >= 0 { Glibc.close(journalFD) }
        if lockFD >= 0 { Glibc.close(lockFD) }
    }

    /// What opening found.
    struct Opened {
        var file: JournalFile
        var model: StoreModel
        var epoch: UInt64
        var recoveredRecords: Int
        var discardedBytes: Int
    }

    /// Locks `directory`, loads the snapshot, replays the journal, cuts a damaged tail (keeping a copy of it in
    /// `journal.damaged-<time>`), and opens the journal for appending. Creates an empty store if there is none.
    static func open(
        directory: String,
        historyLimit: Int,
        seriesLimits: SeriesLimits = SeriesLimits(),
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        queue: DispatchQueue,
        logger: Logger,
        faults: (any JournalFaults)? = nil
    ) throws(StoreError) -> Opened {
        if let problem = createDirectories(directory) { throw StoreError.damaged(directory, problem) }
        let lockPath = directory + "/LOCK"
        let lockFD = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw StoreError.io(lockPath, "open", Errno(errno)) }
        guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(lockFD)
            if code == EWOULDBLOCK { throw StoreError.locked(directory) }
            throw StoreError.io(lockPath, "lock", Errno(code))
        }
        do {
            return try recover(
                directory: directory, historyLimit: historyLimit, seriesLimits: seriesLimits,
                idempotencyBudget: idempotencyBudget, queue: queue, lockFD: lockFD, logger: logger, faults: faults)
        } catch {
            Glibc.close(lockFD)
            throw error
        }
    }

    private static func recover(
        directory: String,
        historyLimit: Int,
        seriesLimits: SeriesLimits,
        idempotencyBudget: Int,
        queue: DispatchQueue,
        lockFD: Int32,
        logger: Logger,
        faults: (any JournalFaults)?
    ) throws(StoreError) -> Opened {
        let journalPath = directory + "/journal"
        let snapshotPath = directory + "/snapshot"
        var model = StoreModel(
            historyLimit: historyLimit, seriesLimits: seriesLimits, idempotencyBudget: idempotencyBudget)
        var epoch: UInt64?

        if let bytes = try read(snapshotPath) {
            guard bytes.count >= headerSize, Array(bytes[0..<8]) == snapshotMagic else {
                throw StoreError.damaged(snapshotPath, "not a Rollboard snapshot")
            }
            var reader = BinaryReader(bytes[8...])
            epoch = reader.read(UInt64.self)
            let scan = JournalScanner.frames(bytes, from: headerSize)
            var loaded: StoreModel?
            if scan.count == 1 {
                loaded = StoreModel(
                    snapshotPayload: scan[0], historyLimit: historyLimit, seriesLimits: seriesLimits,
                    idempotencyBudget: idempotencyBudget)
            }
            guard let loaded else {
                throw StoreError.damaged(
                    snapshotPath,
                    "the snapshot is damaged (it is written atomically, so this "
                        + "is disk corruption); restore it from a backup")
            }
            model = loaded
        }

        var recovered = 0
        var discarded = 0
        if let bytes = try read(journalPath) {
            guard bytes.count >= headerSize, Array(bytes[0..<8]) == journalMagic else {
                throw StoreError.damaged(journalPath, "not a Rollboard journal")
            }
            var reader = BinaryReader(bytes[8...])
            let journalEpoch = reader.read(UInt64.self)!
            if let epoch, epoch != journalEpoch {
                throw StoreError.damaged(
                    journalPath,
                    "belongs to another store (epoch \(hex(journalEpoch)), "
                        + "the snapshot has \(hex(epoch)))")
            }
            epoch = journalEpoch
            let scan = JournalScanner(bytes, from: headerSize)
            for record in scan.records where record.lastSeq > model.lastSeq {
                model.apply(record)
                recovered += 1
            }
            if let damage = scan.damage {
                discarded = bytes.count - scan.intactLength
                let copy = directory + "/journal.damaged-\(Int(Date().timeIntervalSince1970 * 1000))"
                logger.warning(
                    "journal tail damaged; cutting it (a crash mid-write leaves this; those changes were never acknowledged)",
                    metadata: ["reason": "\(damage)", "discardedBytes": "\(discarded)", "copy": "\(copy)"]
                )
                do {
                    try writeFileAtomically(copy, Array(bytes[scan.intactLength...]), directory: directory)
                } catch {
                    logger.warning(
                        "could not keep a copy of the damaged tail (the disk may be full); cutting it all the same",
                        metadata: ["copy": "\(copy)", "error": "\(error)"])
                }
                do {
                    try truncate(journalPath, to: scan.intactLength)
                } catch {
                    throw StoreError.io(journalPath, "cut the damaged tail", error)
                }
            }
        } else {
            let newEpoch: UInt64
            if let epoch {
                newEpoch = epoch
            } else {
                do {
                    newEpoch = try SecureRandom.bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
                } catch {
                    throw StoreError.damaged(directory, "cannot make an epoch: \(error)")
                }
            }
            epoch = newEpoch
            do {
                try writeFileAtomically(journalPath, header(journalMagic, epoch: newEpoch), directory: directory)
            } catch {
                throw StoreError.io(journalPath, "create", error)
            }
        }
        let fd = Glibc.open(journalPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(journalPath, "open", Errno(errno)) }
        let size = Int(lseek(fd, 0, SEEK_END))
        let file = JournalFile(
            directory: directory, queue: queue, lockFD: lockFD, journalFD: fd, size: size, faults: faults)
        return Opened(file: file, model: model, epoch: epoch!, recoveredRecords: recovered, discardedBytes: discarded)
    }

    /// Why an append did not reach the disk.
    enum AppendError: Error {
        /// The write failed (a full disk): the journal was cut back to its last record, so nothing half-written stays
        /// in it and appending may be tried again later.
        case notWritten(Errno)
        /// The write failed and the journal could not be cut back, or the sync failed: what the file holds is no
        /// longer known, so the store must not append again until it is reopened (recovery cuts a torn tail).
        case unknownState(Errno)
    }

    /// Appends `bytes` and waits until they are on disk.
    func appendAndSync(_ bytes: [UInt8]) throws(AppendError) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard journalFD >= 0 else { throw .unknownState(Errno(EBADF)) }
        do throws(Errno) {
            try faults?.check(.append)
            try writeAll(journalFD, bytes)
        } catch {
            guard ftruncate(journalFD, off_t(size)) == 0, fdatasync(journalFD) == 0 else {
                throw .unknownState(error)
            }
            throw .notWritten(error)
        }
        size += bytes.count
        do throws(Errno) {
            try faults?.check(.sync)
            #if os(Linux)
                guard fdatasync(journalFD) == 0 else { throw Errno(errno) }
            #else
                guard fsync(journalFD) == 0 else { throw Errno(errno) }
            #endif
        } catch {
            throw .unknownState(error)
        }
    }

    /// Writes `model` as the snapshot, then replaces the journal with an empty one.
    ///
    /// Crash-safe at every step: until the new snapshot is renamed into place the old snapshot and the full journal
    /// hold everything; after it, records in the old journal are at or below the snapshot's sequence number and
    /// recovery skips them. The fresh journal is created, synced and opened under a temporary name before it is
    /// renamed over the old one, so a failure to create or open it (no descriptors left, a full disk) leaves the old
    /// journal in the folder and in use: appends never go to a file that is no longer linked.
    func compact(_ model: StoreModel, epoch: UInt64) throws(CompactionError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let snapshot = Self.header(Self.snapshotMagic, epoch: epoch) + StoreChange.frame(model.snapshotPayload)
        let temporary = journalPath + ".tmp"
        let fd: Int32
        do throws(Errno) {
            try writeFileAtomically(snapshotPath, snapshot, directory: directory)
            try faults?.check(.openNewJournal)
            fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw Errno(errno) }
            do throws(Errno) {
                try writeAll(fd, Self.header(Self.journalMagic, epoch: epoch))
                guard fsync(fd) == 0 else { throw Errno(errno) }
                guard rename(temporary, journalPath) == 0 else { throw Errno(errno) }
            } catch {
                Glibc.close(fd)
                unlink(temporary)
                throw error
            }
        } catch {
            throw .notCompacted(error)
        }
        Glibc.close(journalFD)
        journalFD = fd
        size = Self.headerSize
        do throws(Errno) {
            try faults?.check(.syncFolder)
            try syncDirectory(directory)
        } catch {
            throw .folderNotSynced(error)
        }
    }

    /// Closes the journal and releases the folder's lock; appends fail afterwards.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        if journalFD >= 0 { Glibc.close(journalFD) }
        if lockFD >= 0 { Glibc.close(lockFD) }
        journalFD = -1
        lockFD = -1
    }

    static func header(_ magic: [UInt8], epoch: UInt64) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(raw: magic)
        writer.write(epoch)
        return writer.bytes
    }

    private static func read(_ path: String) throws(StoreError) -> [UInt8]? {
        do {
            return try readWholeFile(path)
        } catch {
            throw StoreError.io(path, "read", error)
        }
    }

    private static func truncate(_ path: String, to length: Int) throws(Errno) {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Errno(errno) }
        defer { Glibc.close(fd) }
        guard ftruncate(fd, off_t(length)) == 0, fsync(fd) == 0 else { throw Errno(errno) }
    }
}
