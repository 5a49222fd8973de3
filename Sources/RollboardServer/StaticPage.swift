public import Foundation
import RollboardCore
public import RollboardNet

/// The page's static files (`public/`) as one build: a hash over every file's path and contents, taken when the node
/// starts, so it changes whenever any page file does and is the same on every node serving the same files. The
/// dashboard page is served stamped with it (`<meta name="rollboard-build" content="…">`, an ETag that carries it) and
/// every hello tells it (``PageBuild``): a screen running an older page reloads itself (public/js/upgrade.js,
/// docs/cluster.md "Rolling upgrade").
public struct StaticPage: Sendable {
    /// The build: 16 hex digits, or `nil` when the folder has no file to hash.
    public let build: String?

    /// What the dashboard page carries in place of its build, as public/dashboard.html ships it.
    static let placeholder = Array(#"<meta name="rollboard-build" content="">"#.utf8)

    /// Hashes the files under `directory` (hidden ones left out, as they are never served).
    public init(directory: String) {
        let files = FileManager.default
        let paths = (try? files.subpathsOfDirectory(atPath: directory)) ?? []
        var manifest: [UInt8] = []
        for path in paths.sorted() where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var isDirectory: ObjCBool = false
            let full = directory + "/" + path
            guard files.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                let contents = files.contents(atPath: full)
            else { continue }
            manifest += Array(path.utf8) + [0] + Digest.sha256(Array(contents)) + [10]
        }
        self.init(build: manifest.isEmpty ? nil : Self.hexPrefix(Digest.sha256(manifest)))
    }

    init(build: String?) {
        self.build = build
    }

    /// The first 8 bytes of `digest` as 16 lowercase hex digits.
    private static func hexPrefix(_ digest: [UInt8]) -> String {
        hex(digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The request for the dashboard page's file: without `If-None-Match`, since the file's own tag does not say
    /// which build it is stamped with (``stamped(_:ifNoneMatch:)`` answers it instead).
    func fileRequest(_ request: HTTPRequest) -> HTTPRequest {
        var page = request
        page.target = "/dashboard.html"
        if build != nil { page.headers.remove(name: "If-None-Match") }
        return page
    }

    /// The dashboard page's `response` stamped with the build, its ETag extended by it; a 304 when `ifNoneMatch` (the
    /// request's) names that tag. Any other answer (an error, a page without the placeholder) is left as it is.
    func stamped(_ response: HTTPResponse, ifNoneMatch: String?) -> HTTPResponse {
        guard let build, response.status == .ok, let range = response.body.firstRange(of: Self.placeholder) else {
            return response
        }
        var stamped = response
        stamped.body.replaceSubrange(range, with: Array(#"<meta name="rollboard-build" content="\#(build)">"#.utf8))
        guard let tag = response.headers["ETag"], tag.hasSuffix("\"") else { return stamped }
        let extended = tag.dropLast() + "-" + build + "\""
        stamped.headers.replaceOrAdd(name: "ETag", value: extended)
        if let ifNoneMatch, StaticFileResponder.entityTag(extended, matchesAnyOf: ifNoneMatch) {
            var headers = stamped.headers
            headers.remove(name: "Content-Type")
            headers.remove(name: "Last-Modified")
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return stamped
    }
}
