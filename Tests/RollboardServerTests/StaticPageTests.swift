import Foundation
import Testing

@testable import RollboardNet
@testable import RollboardServer

/// The page's build: a hash over public/, stamped on the dashboard page with an ETag that carries it.
struct StaticPageTests {
    /// A folder of page files that is removed at the end of the test.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.path + "/rollboard-page-\(UUID().uuidString)"

        init(_ files: [String: String]) throws {
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            let file = path + "/" + name
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let files = ["dashboard.html": "<meta>", "js/dashboard.js": "go()", "css/rollboard.css": "a{}"]

    @Test("the build is the same for the same files and changes with any file's contents or name")
    func buildFollowsFiles() throws {
        let one = try Folder(Self.files)
        let two = try Folder(Self.files)
        let build = try #require(StaticPage(directory: one.path).build)
        #expect(build.count == 16)
        #expect(StaticPage(directory: two.path).build == build)
        try two.write(".hidden", "never served")
        #expect(StaticPage(directory: two.path).build == build)
        try two.write("js/dashboard.js", "go(2)")
        #expect(StaticPage(directory: two.path).build != build)
        try one.write("js/other.js", "go()")
        #expect(StaticPage(directory: one.path).build != build)
        #expect(StaticPage(directory: one.path + "/missing").build == nil)
    }

    static let placeholder = #"<head><meta name="rollboard-build" content=""></head>"#

    @Test(
        "the dashboard page is stamped with the build, its ETag carries it, and only that tag answers 304",
        arguments: [
            (nil, HTTPStatus.ok), (#""1-2-abc""#, .notModified), (#"W/"1-2-abc", "x""#, .notModified),
            (#""1-2""#, .ok), (#""1-2-old""#, .ok),
        ])
    func stamping(ifNoneMatch: String?, status: HTTPStatus) {
        let file = HTTPResponse(
            status: .ok, headers: ["ETag": #""1-2""#, "Content-Type": "text/html"], body: Array(Self.placeholder.utf8))
        let response = StaticPage(build: "abc").stamped(file, ifNoneMatch: ifNoneMatch)
        #expect(response.status == status)
        #expect(response.headers["ETag"] == #""1-2-abc""#)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == (status == .ok ? #"<head><meta name="rollboard-build" content="abc"></head>"# : ""))
    }

    @Test("a page without the placeholder, an error or a node without a build is left as it is")
    func leftAlone() {
        let plain = HTTPResponse(status: .ok, headers: ["ETag": #""1-2""#], body: Array("<p>".utf8))
        #expect(StaticPage(build: "abc").stamped(plain, ifNoneMatch: #""1-2-abc""#) == plain)
        let missing = HTTPResponse.error(.notFound, "not_found", detail: "no such file")
        #expect(StaticPage(build: "abc").stamped(missing, ifNoneMatch: nil) == missing)
        let page = HTTPResponse(status: .ok, headers: ["ETag": #""1-2""#], body: Array(Self.placeholder.utf8))
        #expect(StaticPage(build: nil).stamped(page, ifNoneMatch: #""1-2""#) == page)
        var request = HTTPRequest(method: "GET", target: "/d/ops?key=k", headers: ["If-None-Match": #""1-2""#])
        #expect(StaticPage(build: "abc").fileRequest(request).headers["If-None-Match"] == nil)
        #expect(StaticPage(build: "abc").fileRequest(request).target == "/dashboard.html")
        request.target = "/p/wall"
        #expect(StaticPage(build: nil).fileRequest(request).headers["If-None-Match"] == #""1-2""#)
    }
}
