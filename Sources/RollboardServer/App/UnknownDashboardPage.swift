import RollboardNet

/// The answer to `/d/ID` for a dashboard that is not configured: a 404 page with a link to the list of dashboards
/// for a browser (a wall screen shows words, not JSON), the precise JSON error for everything else.
enum UnknownDashboardPage {
    /// The 404 for dashboard `id`, as HTML when `accept` (the request's Accept header) names `text/html`.
    static func response(id: String, accept: String?) -> HTTPResponse {
        guard let accept, accept.lowercased().contains("text/html") else {
            return .error(.notFound, "unknown_dashboard", detail: "no dashboard \"\(id)\" is configured")
        }
        let name = escaped(id)
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <meta name="color-scheme" content="dark light">
              <title>Rollboard — no dashboard “\(name)”</title>
              <link rel="icon" href="data:,">
              <link rel="stylesheet" href="/css/rollboard.css">
            </head>
            <body class="index-page">
              <header class="board-header">
                <h1 class="board-title">No dashboard “\(name)”</h1>
              </header>
              <main class="index">
                <p class="index__status">This server has no dashboard with that id. Check the address, or pick one from
                  <a class="index__link" href="/">the list of dashboards</a>.</p>
              </main>
            </body>
            </html>

            """
        var response = HTTPResponse(status: .notFound, contentType: "text/html; charset=utf-8", text: page)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
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
