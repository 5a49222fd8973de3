package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// Why `/d/ID` is not shown: an unknown dashboard (404), a missing viewer key (401) or a refused one (403). A browser
/// gets a page in the site's style with a link to the list of dashboards (a wall screen shows words, not JSON);
/// its `public/js/refusal.js` applies the address's `?theme=` and `?kiosk` before the page is painted and carries
/// them over to the link. Everything else gets the precise JSON error.
enum DashboardRefusal: Equatable {
    case unknown(id: String)
    case keyRequired(id: String)
    case keyRefused(id: String)

    /// The refusal as HTML when `accept` (the request's Accept header) names `text/html`, else as JSON.
    func response(accept: String?) -> HTTPResponse {
        let (status, code, detail, heading, text) = parts
        guard let accept, accept.lowercased().contains("text/html") else {
            var response = HTTPResponse.error(status, code, detail: detail)
            if status == .unauthorized { response.headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"rollboard\"") }
            return response
        }
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <meta name="color-scheme" content="dark light">
              <title>Rollboard — \(heading)</title>
              <link rel="icon" href="data:,">
              <link rel="stylesheet" href="/css/rollboard.css">
              <script src="/js/refusal.js"></script>
            </head>
            <body class="refusal-page" data-refusal="\(code)">
              <main class="refusal">
                <h1 class="refusal__heading">\(heading)</h1>
                <p class="refusal__text">\(text)
                  Or pick one from <a class="refusal__link" href="/" data-carry-query>the list of dashboards</a>.</p>
              </main>
            </body>
            </html>

            """
        var response = HTTPResponse(status: status, contentType: "text/html; charset=utf-8", text: page)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }

    private var parts: (HTTPStatus, String, String, String, String) {
        switch self {
        case .unknown(let id):
            (.notFound, "unknown_dashboard", "no dashboard \"\(id)\" is configured", "No dashboard “\(Self.escaped(id))”",
             "This server has no dashboard with that id. Check the address.")
        case .keyRequired(let id):
            (.unauthorized, "viewer_key_required",
             "dashboard \"\(id)\" needs a viewer key: open /d/\(id)?key=KEY, or send Authorization: Bearer KEY",
             "“\(Self.escaped(id))” needs a viewer key",
             "This dashboard is not public. Open it with the link your administrator gave you (it ends in ?key=…).")
        case .keyRefused(let id):
            (.forbidden, "invalid_viewer_key",
             "the key is not valid for dashboard \"\(id)\": unknown, revoked, or made for other dashboards",
             "This key does not open “\(Self.escaped(id))”",
             "The viewer key is unknown, was revoked, or was made for other dashboards. Ask for a new link.")
        }
    }

    /// `text` with the five characters that mean something in HTML replaced by their entities.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
