import Testing
import RollboardNet

@testable import RollboardServer

@Suite("Unknown dashboard page")
struct UnknownDashboardPageTests {
    @Test("a browser gets an HTML page with the id escaped and a link to the list; other clients the JSON error")
    func pageOrJSON() {
        let page = UnknownDashboardPage.response(id: #"<script>"x"&'</script>"#, accept: "text/html,*/*;q=0.8")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status.code == 404)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(html.contains("&lt;script&gt;&quot;x&quot;&amp;&#39;&lt;/script&gt;"))
        #expect(!html.contains("<script>"))
        #expect(html.contains(#"href="/""#))
        for accept in [nil, "*/*", "application/json"] as [String?] {
            let json = UnknownDashboardPage.response(id: "sales", accept: accept)
            #expect(json.status.code == 404)
            #expect(json.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect(String(decoding: json.body, as: UTF8.self).contains(#""error":"unknown_dashboard""#))
        }
    }
}
