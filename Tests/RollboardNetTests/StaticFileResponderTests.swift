import Foundation
import Testing

@testable import RollboardNet

/// A temporary site: `root/` with pages and assets, and `outside/` with a secret that must never be served.
private final class Site {
    let base: String
    let root: String
    let responder: StaticFileResponder

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("rollboard-static-\(UUID())").path
        root = base + "/public"
        let files: [String: String] = [
            "public/index.html": "<h1>boards</h1>",
            "public/app.js": "console.log(1)",
            "public/module.MJS": "export {}",
            "public/style.css": "body{}",
            "public/data.json": "{}",
            "public/logo.svg": "<svg/>",
            "public/logo.png": "png",
            "public/photo.jpeg": "jpeg",
            "public/font.woff2": "woff2",
            "public/blob.bin": "bin",
            "public/.env": "TOKEN=1",
            "public/d/index.html": "<p>dashboard</p>",
            "public/name with space.txt": "spaced",
            "outside/secret.txt": "TOP SECRET",
        ]
        for (path, content) in files {
            let url = URL(fileURLWithPath: base + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(
            atPath: root + "/escape.txt", withDestinationPath: base + "/outside/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/escape-dir", withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(atPath: root + "/alias.js", withDestinationPath: "app.js")
        responder = StaticFileResponder(root: root)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    func get(_ target: String, method: String = "GET", headers: HTTPHeaders = [:]) -> HTTPResponse {
        responder.respond(to: HTTPRequest(method: method, target: target, headers: headers))
    }
}

private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

@Suite("Static file responder")
struct StaticFileResponderTests {
    static let types: [(String, String)] = [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/module.MJS", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/data.json", "application/json"),
        ("/logo.svg", "image/svg+xml"),
        ("/logo.png", "image/png"),
        ("/photo.jpeg", "image/jpeg"),
        ("/font.woff2", "font/woff2"),
        ("/blob.bin", "application/octet-stream"),
        ("/name%20with%20space.txt", "text/plain; charset=utf-8"),
        ("/alias.js", "text/javascript; charset=utf-8"),
    ]

    @Test("files are served with the content type of their extension, revalidated on every use", arguments: types)
    func servesContentTypes(target: String, type: String) throws {
        let site = try Site()
        let response = site.get(target)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == type)
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(!response.body.isEmpty)
    }

    @Test("/ and folders with a trailing slash serve their index.html, never cached without revalidation")
    func servesIndexFiles() throws {
        let site = try Site()
        for (target, body) in [("/", "<h1>boards</h1>"), ("/?x=1", "<h1>boards</h1>"), ("/d/", "<p>dashboard</p>")] {
            let response = site.get(target)
            #expect(response.status == .ok)
            #expect(text(response) == body)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Cache-Control"] == "no-cache")
        }
    }

    @Test("a folder named without its trailing slash redirects to the name with one")
    func redirectsFolderWithoutSlash() throws {
        let response = try Site().get("/d?x=1")
        #expect(response.status == .movedPermanently)
        #expect(response.headers["Location"] == "/d/?x=1")
    }

    @Test("the ETag is strong and If-None-Match with it answers 304 without a body")
    func answersNotModified() throws {
        let site = try Site()
        let first = site.get("/app.js")
        let tag = try #require(first.headers["ETag"])
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        for condition in [tag, "\"other\", \(tag)", "W/\(tag)", "*"] {
            let again = site.get("/app.js", headers: ["If-None-Match": condition])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
            #expect(again.headers["ETag"] == tag)
        }
        #expect(site.get("/app.js", headers: ["If-None-Match": "\"other\""]).status == .ok)
    }

    @Test("the ETag changes when the file changes")
    func etagFollowsContent() throws {
        let site = try Site()
        let before = site.get("/data.json").headers["ETag"]
        try Data("{\"a\":1}".utf8).write(to: URL(fileURLWithPath: site.root + "/data.json"))
        #expect(site.get("/data.json").headers["ETag"] != before)
    }

    @Test("HEAD answers like GET, and serialized for HEAD has the Content-Length but no body")
    func answersHead() throws {
        let site = try Site()
        let response = site.get("/style.css", method: "HEAD")
        #expect(response.status == .ok)
        let bytes = String(
            decoding: response.serialized(date: HTTPDate(secondsSince1970: 0), keepAlive: true, headOnly: true),
            as: UTF8.self)
        #expect(bytes.hasSuffix("Content-Length: 6\r\n\r\n"))
    }

    @Test("methods other than GET and HEAD get 405 with Allow", arguments: ["POST", "PUT", "DELETE", "OPTIONS"])
    func refusesOtherMethods(method: String) throws {
        let response = try Site().get("/app.js", method: method)
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }

    static let traversals: [String] = [
        "/../etc/passwd",
        "/../outside/secret.txt",
        "/%2e%2e/outside/secret.txt",
        "/%2E%2E%2Foutside%2Fsecret.txt",
        "/..%2foutside/secret.txt",
        "/d/../../outside/secret.txt",
        "/index.html%00.png",
        "/%zz",
        "/%C0%AE%C0%AE/outside/secret.txt",
        "*",
    ]

    @Test("traversal attempts, NUL bytes, bad escapes and non-paths are refused with 400", arguments: traversals)
    func refusesTraversal(target: String) throws {
        let response = try Site().get(target)
        #expect(response.status == .badRequest)
        #expect(!text(response).contains("SECRET"))
    }

    static let hidden: [String] = [
        "/escape.txt", "/escape-dir/secret.txt", "/escape-dir/", "/.env", "/missing.js",
        "/d/missing",
    ]

    @Test("symlinks out of the root, hidden and missing files are a 404 JSON error", arguments: hidden)
    func refusesEscapesAndMissingFiles(target: String) throws {
        let response = try Site().get(target)
        #expect(response.status == .notFound)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(text(response) == "{\"error\":\"not_found\",\"detail\":\"no such file\"}")
    }

    @Test("files over the size cap are not served")
    func capsFileSize() throws {
        let site = try Site()
        let capped = StaticFileResponder(root: site.root, maxFileBytes: 4)
        #expect(capped.respond(to: HTTPRequest(method: "GET", target: "/app.js")).status == .internalServerError)
        #expect(capped.respond(to: HTTPRequest(method: "GET", target: "/logo.png")).status == .ok)
    }

    static let everyKind: [(target: String, headers: HTTPHeaders, status: HTTPStatus)] = [
        ("/", [:], .ok),
        ("/app.js", [:], .ok),
        ("/app.js", ["If-None-Match": "*"], .notModified),
        ("/d", [:], .movedPermanently),
        ("/missing.js", [:], .notFound),
        ("/../etc/passwd", [:], .badRequest),
    ]

    @Test("every response carries the content security policy, nosniff and no-referrer", arguments: everyKind)
    func securityHeaders(target: String, headers: HTTPHeaders, status: HTTPStatus) throws {
        let response = try Site().get(target, headers: headers)
        #expect(response.status == status)
        #expect(
            response.headers["Content-Security-Policy"]
                == "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; "
                + "connect-src 'self' wss: ws:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        #expect(response.headers.values(for: "X-Content-Type-Options") == ["nosniff"])
        #expect(response.headers["Referrer-Policy"] == "no-referrer")
    }

    @Test("a file served twice unchanged is read from disk once, and a 304 reads nothing")
    func readsOnce() throws {
        let site = try Site()
        #expect(text(site.get("/app.js")) == "console.log(1)")
        #expect(text(site.get("/app.js")) == "console.log(1)")
        #expect(text(site.get("/alias.js")) == "console.log(1)")
        #expect(site.get("/app.js", headers: ["If-None-Match": "*"]).status == .notModified)
        #expect(site.responder.diskReadCount == 1)
    }

    @Test("a file changed on disk is served with its new content, whether its size changed or only its time")
    func followsEdits() throws {
        let site = try Site()
        let path = site.root + "/data.json"
        #expect(text(site.get("/data.json")) == "{}")
        try Data("{\"a\":1}".utf8).write(to: URL(fileURLWithPath: path))
        #expect(text(site.get("/data.json")) == "{\"a\":1}")
        try Data("{\"b\":2}".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: path)
        #expect(text(site.get("/data.json")) == "{\"b\":2}")
        #expect(site.responder.diskReadCount == 3)
    }

    @Test("a root that does not exist serves nothing")
    func missingRootServesNothing() {
        let responder = StaticFileResponder(root: "/nonexistent-rollboard-root")
        #expect(responder.respond(to: HTTPRequest(method: "GET", target: "/")).status == .notFound)
    }
}
