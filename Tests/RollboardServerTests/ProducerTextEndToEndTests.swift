import Foundation
import RollboardClient
import RollboardNet
import Testing

/// Producer-fed text over the wire: the real server with TLS, the shipped demo dashboard's `notice` text tile and
/// `news` carousel, posts over HTTPS and screens over WebSockets, and a restart on the same data.
@Suite("Producer-fed text end to end")
struct ProducerTextEndToEndTests {
    private static let slides = ##"""
        {"slides":[{"text":"Welcome, visitors"},{"image":"https://example.com/a.png","alt":"The lobby"},{"text":"Fire drill at 3","color":"#c0392b"}]}
        """##

    /// The state of tile `id` in a long-form message (`hello` or frame), if it has one.
    private func tile(_ id: String, in message: [String: Any]) -> [String: Any]? {
        (message["tiles"] as? [String: Any])?[id] as? [String: Any]
    }

    @Test("a posted text reaches every screen in its next frame, shows in a new screen's hello, and survives a restart")
    func textReachesScreens() throws {
        try withRestartedLiveServer(
            before: { (live: LiveServer) throws in
                let moving = try Screen(live.webSocket())
                let calm = try Screen(live.webSocket("/ws?dashboard=demo&motion=reduced"))
                let initial = try #require(tile("notice", in: moving.hello()))
                #expect(initial["text"] as? String == "Producers set this message: POST /api/v1/texts/notice")
                _ = try calm.hello()

                let response = try live.post("/api/v1/texts/notice", ##"{"text":"Deploy freeze until Friday","color":"#e67e22"}"##)
                #expect(response.status.code == 202)
                let acknowledged = try jsonObject(response.body)
                #expect(acknowledged["text"] as? String == "Deploy freeze until Friday")
                #expect((acknowledged["seq"] as? Int ?? 0) >= 1)
                for screen in [moving, calm] {
                    let frames = try screen.frames { tile("notice", in: $0)?["text"] as? String == "Deploy freeze until Friday" }
                    #expect(tile("notice", in: frames.last!)?["color"] as? String == "#e67e22")
                }
                let late = try #require(tile("notice", in: Screen(live.webSocket()).hello()))
                #expect(late["text"] as? String == "Deploy freeze until Friday")
                let read = try jsonObject(live.request("GET", "/api/v1/texts/notice").body)
                #expect(read["color"] as? String == "#e67e22")
            },
            after: { (restarted: LiveServer) throws in
                let notice = try #require(tile("notice", in: Screen(restarted.webSocket()).hello()))
                #expect(notice["text"] as? String == "Deploy freeze until Friday")
                #expect(notice["color"] as? String == "#e67e22")
            })
    }

    @Test("posted slides replace the carousel's on every screen in one frame, show in a new screen's hello, and survive a restart")
    func slidesReachScreens() throws {
        try withRestartedLiveServer(
            before: { (live: LiveServer) throws in
                let screen = try Screen(live.webSocket())
                #expect(tile("news", in: try screen.hello())?["slides"] == nil, "the configured slides show until a producer sets some")

                let response = try live.post("/api/v1/carousels/news/slides", Self.slides)
                #expect(response.status.code == 202)
                let acknowledged = try jsonObject(response.body)
                #expect(acknowledged["slides"] as? Int == 3)
                let frames = try screen.frames { (tile("news", in: $0)?["slides"] as? [Any])?.count == 3 }
                let news = try #require(tile("news", in: frames.last!))
                let slides = try #require(news["slides"] as? [[String: Any]])
                #expect(slides[1]["image"] as? String == "https://example.com/a.png")
                #expect(slides[1]["alt"] as? String == "The lobby")
                #expect(slides[2]["color"] as? String == "#c0392b")
                #expect((news["page"] as? Int).map { (0..<3).contains($0) } == true)
                #expect((news["position"] as? Double).map { $0 >= 0 && $0 < 3 } == true)
                #expect(try live.post("/api/v1/carousels/news", #"{"action":"goto","page":2}"#).status.code == 202)
                #expect(try live.post("/api/v1/carousels/news", #"{"action":"goto","page":3}"#).status.code == 422)

                let late = try #require(tile("news", in: Screen(live.webSocket()).hello()))
                #expect((late["slides"] as? [Any])?.count == 3)
                #expect(try live.post("/api/v1/carousels/news/slides", #"{"slides":[{"text":"only one"}]}"#).status.code == 202)
                let shrunk = try screen.frames { (tile("news", in: $0)?["slides"] as? [Any])?.count == 1 }
                #expect(tile("news", in: shrunk.last!)?["page"] as? Int == 0, "the page is clamped to the one slide left")
            },
            after: { (restarted: LiveServer) throws in
                let news = try #require(tile("news", in: Screen(restarted.webSocket()).hello()))
                #expect(news["slides"] as? [[String: String]] == [["text": "only one"]])
                #expect(news["page"] as? Int == 0)
            })
    }
}
