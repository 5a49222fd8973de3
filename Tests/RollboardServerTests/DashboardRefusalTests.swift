import Testing
import RollboardNet

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardServer

@Suite("Dashboard refusal pages")
struct DashboardRefusalTests {
    @Test(
        "a browser gets an HTML page in the refusal's status with the id escaped and a link to the list",
        arguments: [
            (DashboardRefusal.unknown(id: #"<script>"x"&'</script>"#), 404, "unknown_dashboard"),
            (DashboardRefusal.keyRequired(id: #"<script>"x"&'</script>"#), 401, "viewer_key_required"),
            (DashboardRefusal.keyRefused(id: #"<script>"x"&'</script>"#), 403, "invalid_viewer_key"),
        ])
    func htmlPage(refusal: DashboardRefusal, status: Int, code: String) {
        let page = refusal.response(accept: "text/html,*/*;q=0.8")
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status.code == status)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(html.contains("&lt;script&gt;&quot;x&quot;&amp;&#39;&lt;/script&gt;"))
        #expect(!html.contains("<script>"))
        #expect(html.contains(#"data-refusal="\#(code)""#))
    }

    @Test("the page loads the script that applies ?theme= and ?kiosk, and links to the list inline, not as a card")
    func themeAndLink() {
        for refusal in [DashboardRefusal.unknown(id: "sales"), .keyRequired(id: "sales"), .keyRefused(id: "sales")] {
            let html = String(decoding: refusal.response(accept: "text/html").body, as: UTF8.self)
            #expect(html.contains("<script src=\"/js/refusal.js\"></script>\n</head>"))
            #expect(html.contains(#"<a class="refusal__link" href="/" data-carry-query>the list of dashboards</a>"#))
            #expect(!html.contains("index__link"))
        }
    }

    @Test(
        "other clients get the precise JSON error",
        arguments: [nil, "*/*", "application/json"] as [String?])
    func jsonError(accept: String?) {
        for (refusal, status, code) in [
            (DashboardRefusal.unknown(id: "sales"), 404, "unknown_dashboard"),
            (.keyRequired(id: "sales"), 401, "viewer_key_required"),
            (.keyRefused(id: "sales"), 403, "invalid_viewer_key"),
        ] {
            let json = refusal.response(accept: accept)
            #expect(json.status.code == status)
            #expect(json.headers["Content-Type"]?.hasPrefix("application/json") == true)
            #expect(String(decoding: json.body, as: UTF8.self).contains(#""error":"\#(code)""#))
            #expect((json.headers["WWW-Authenticate"] != nil) == (status == 401))
        }
    }
}
