#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `strerror(errno)` as a Swift string.
package func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Creates `path` and the folders above it that do not exist yet (mode 0700), syncing the parent of each new folder
/// so the folders survive a crash right after they were made; returns a problem, or `nil`.
package func createDirectories(_ path: String) -> String? {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") where !component.isEmpty {
        let parent = prefix.isEmpty ? "/" : prefix
        prefix += "/" + component
        if mkdir(prefix, 0o700) == 0 {
            do {
                try syncDirectory(parent)
            } catch {
                return "\(parent): cannot sync the folder after creating \(prefix): \(error)"
            }
        } else if errno != EEXIST {
            return "\(prefix): cannot create folder: \(errnoText())"
        }
    }
    return nil
}

/// Creates the folders above `path`; returns a problem, or `nil`.
package func createDirectories(parentOf path: String) -> String? {
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return createDirectories(String(path[..<slash]))
}

/// The whole content of `path`, `nil` if it does not exist; throws the `errno` of any other failure.
package func readWholeFile(_ path: String) throws(Errno) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 && errno == ENOENT { return nil }
    guard fd >= 0 else { throw Errno(errno) }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw Errno(errno) }
        if count == 0 { return result }
        result.append(contentsOf: chunk[..<count])
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes; throws the `errno` of a failure.
package func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw Errno(errno) }
        offset += count
    }
}

/// Flushes a folder's entries (new or renamed files) to disk.
package func syncDirectory(_ path: String) throws(Errno) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw Errno(errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw Errno(errno) }
}

/// Writes `bytes` to `path` atomically: a temporary file, fsync, rename over `path`, fsync of the folder.
package func writeFileAtomically(_ path: String, _ bytes: [UInt8], directory: String) throws(Errno) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw Errno(errno) }
    do throws(Errno) {
        try writeAll(fd, bytes)
        guard fsync(fd) == 0 else { throw Errno(errno) }
    } catch {
        close(fd)
        unlink(temporary)
        throw error
    }
    close(fd)
    guard rename(temporary, path) == 0 else { throw Errno(errno) }
    try syncDirectory(directory)
}

/// A failed system call's `errno`.
package struct Errno: Error, Equatable, CustomStringConvertible {
    let code: Int32

    package init(_ code: Int32) {
        self.code = code
    }

    package var description: String { errnoText(code) }
}
