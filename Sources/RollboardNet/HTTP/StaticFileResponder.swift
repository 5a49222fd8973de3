#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers GET and HEAD requests with files under a root folder.
///
/// - `/` and other folders map to their `index.html`; a folder named without its trailing slash is
///   redirected (301) to the name with one, so relative links in the page resolve.
/// - Content types come from the file extension; every file is `Cache-Control: no-cache` (revalidated on each
///   use: a page reloaded after an upgrade never runs an older script or stylesheet from the browser's cache). A
///   strong `ETag` from size and modification time lets `If-None-Match` answer 304, so revalidating costs no body.
/// - The path is percent-decoded before it is checked: `..` segments, NUL bytes and invalid escapes are
///   refused with 400, segments starting with `.` (hidden files) are not served. The file's real path,
///   symlinks resolved, must lie under the real path of the root, so no symlink leads outside it.
/// - Missing files are a 404 JSON error; files over `maxFileBytes` are a 500 JSON error.
/// - Every response carries `Content-Security-Policy` (scripts, styles and connections from the page's own
///   origin only, WebSockets allowed, never framed), `X-Content-Type-Options: nosniff` and
///   `Referrer-Policy: no-referrer`.
/// - File bodies stay in memory, up to `cacheBytes` in all, and are read again only when a file's size or
///   modification time changes; every request still checks the file with `stat`.
///
/// A HEAD answer carries the body like GET; the connection serializes it with `headOnly: true`, which
/// keeps the `Content-Length` and leaves the body out.
public struct StaticFileResponder: Sendable {
    /// The folder whose files are served.
    public let root: String
    /// The largest file served; files are read whole into memory.
    public let maxFileBytes: Int
    private let cache: StaticFileCache

    /// A responder for the files under `root`, keeping up to `cacheBytes` of file bodies in memory.
    public init(root: String, maxFileBytes: Int = 8 * 1024 * 1024, cacheBytes: Int = 32 * 1024 * 1024) {
        self.root = root
        self.maxFileBytes = maxFileBytes
        self.cache = StaticFileCache(capacityBytes: cacheBytes)
    }

    /// The headers every response carries.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; "
                + "connect-src 'self' wss: ws:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// How many times a file body was read from disk (not from memory).
    var diskReadCount: Int { cache.diskReads }

    /// The response for `request`: the file, a 301/304, or a JSON error (400, 404, 405, 500).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var response = fileResponse(to: request)
        for (name, value) in Self.securityHeaders where !response.headers.contains(name) {
            response.headers.add(name: name, value: value)
        }
        return response
    }

    private func fileResponse(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.error(
                .methodNotAllowed, "method_not_allowed", detail: "static files answer GET and HEAD only")
            response.headers.add(name: "Allow", value: "GET, HEAD")
            return response
        }
        let rawPath = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard rawPath.hasPrefix("/"), let path = Self.checkedPath(rawPath) else {
            return .error(
                .badRequest, "invalid_path",
                detail: "the path must be a valid, percent-encoded absolute path without '..' segments")
        }
        guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
            let rootPath = realPath(root),
            let resolved = realPath(rootPath + path), Self.isPath(resolved, inside: rootPath),
            var info = fileStatus(resolved)
        else { return notFound }

        var filePath = resolved
        if info.isDirectory {
            guard rawPath.hasSuffix("/") else {
                var location = "/" + rawPath.drop { $0 == "/" } + "/"
                if let mark = request.target.firstIndex(of: "?") { location += request.target[mark...] }
                var response = HTTPResponse.error(.movedPermanently, "moved_permanently", detail: location)
                response.headers.add(name: "Location", value: location)
                return response
            }
            guard let index = realPath(resolved + "/index.html"), Self.isPath(index, inside: rootPath),
                let indexInfo = fileStatus(index)
            else { return notFound }
            filePath = index
            info = indexInfo
        }
        guard info.isRegularFile else { return notFound }

        let type = Self.contentType(forPath: filePath)
        var headers: HTTPHeaders = [
            "ETag": info.entityTag,
            "Cache-Control": "no-cache",
        ]
        if let tags = request.headers["If-None-Match"], Self.entityTag(info.entityTag, matchesAnyOf: tags) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        guard info.size <= maxFileBytes else {
            return .error(
                .internalServerError, "file_too_large", detail: "the file is larger than this server serves")
        }
        let validator = StaticFileCache.Validator(
            size: info.size, modificationSeconds: info.modificationSeconds,
            modificationNanoseconds: info.modificationNanoseconds)
        guard
            let body = cache.body(
                at: filePath, validator: validator,
                read: { readFile(filePath, expectedSize: info.size, limit: maxFileBytes) })
        else { return notFound }
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Last-Modified", value: HTTPDate(secondsSince1970: info.modificationSeconds).description)
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    private var notFound: HTTPResponse {
        .error(.notFound, "not_found", detail: "no such file")
    }

    /// The percent-decoded path, or `nil` when it has an invalid escape, a NUL byte, invalid UTF-8
    /// or a `..` segment.
    static func checkedPath(_ raw: some StringProtocol) -> String? {
        guard let decoded = HTTPRequest.percentDecoded(raw), !decoded.utf8.contains(0) else { return nil }
        guard !decoded.split(separator: "/").contains("..") else { return nil }
        return decoded
    }

    static func isPath(_ path: String, inside root: String) -> Bool {
        path.hasPrefix(root.hasSuffix("/") ? root : root + "/") || path == root
    }

    /// Whether `tags` (an `If-None-Match` value) lists `tag` or is `*`, compared weakly as RFC 9110
    /// section 13.1.2 says.
    public static func entityTag(_ tag: String, matchesAnyOf tags: String) -> Bool {
        tags.split(separator: ",").contains { element in
            let candidate = element.trimmingWhitespace()
            return candidate == "*" || candidate == tag
                || (candidate.hasPrefix("W/") && candidate.dropFirst(2) == tag)
        }
    }

    /// The media type for the file's extension; `application/octet-stream` for unknown ones.
    static func contentType(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return contentTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    private static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
    ]
}

/// What `stat` says about a file, as far as serving it needs.
private struct FileStatus {
    var isDirectory: Bool
    var isRegularFile: Bool
    var size: Int
    var modificationSeconds: Int64
    var modificationNanoseconds: Int64

    /// A strong validator: size and modification time to the nanosecond, in hex.
    var entityTag: String {
        let parts = [Int64(size), modificationSeconds, modificationNanoseconds].map { String($0, radix: 16) }
        return "\"" + parts.joined(separator: "-") + "\""
    }
}

private func fileStatus(_ path: String) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
        let modified = info.st_mtimespec
    #else
        let modified = info.st_mtim
    #endif
    return FileStatus(
        isDirectory: info.st_mode & S_IFMT == S_IFDIR,
        isRegularFile: info.st_mode & S_IFMT == S_IFREG,
        size: Int(info.st_size),
        modificationSeconds: Int64(modified.tv_sec),
        modificationNanoseconds: Int64(modified.tv_nsec))
}

/// The canonical absolute path with every symlink resolved, or `nil` when it does not exist.
private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The whole file, or `nil` when it cannot be opened or grew beyond `limit` while being read.
private func readFile(_ path: String, expectedSize: Int, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(expectedSize)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { return bytes }
        guard bytes.count + count <= limit else { return nil }
        bytes.append(contentsOf: chunk[..<count])
    }
}
