public import RollboardConfig
public import RollboardFetch
public import RollboardMetrics
package import RollboardRedisLog
public import RollboardStore

/// One fetch of a source, blocking the calling thread: the requests its configuration makes (one for a `json`
/// source, one per query for a `prometheus` one, one read-only transaction for a `postgres` one), each answer read
/// into values. Run on a source's fetch queue, and by `rollboard sources check`.
public enum SourceFetch {
    /// The values of every metric and leaderboard of `source`, or why there are none.
    public static func perform(
        _ source: SourceConfiguration, environment: (String) -> String? = SourceHeader.processEnvironment
    ) -> Result<SourceValues, SourceFailure> {
        Result { () throws(SourceFailure) in
            let headers = try source.headers.map { header throws(SourceFailure) in
                FetchHeader(name: header.name, value: try header.value(environment: environment))
            }
            switch source.kind {
            case .json:
                let body = try answer(request(source, url: source.url, headers: headers, body: source.body))
                return try SourceAnswer.jsonSourceValues(body, source: source)
            case .prometheus:
                var values = SourceValues()
                for metric in source.metrics {
                    let url = queryURL(base: source.url, query: metric.query ?? "")
                    values.metrics[metric.metric] = try SourceAnswer.prometheusValue(
                        answer(request(source, url: url, headers: headers, body: nil)))
                }
                return values
            case .postgres:
                return try SourcePostgres.perform(source, environment: environment)
            }
        }
    }

    private static func request(
        _ source: SourceConfiguration, url: String, headers: [FetchHeader], body: String?
    ) -> FetchRequest {
        FetchRequest(
            url: url, method: source.method, headers: headers, body: body.map { Array($0.utf8) },
            timeout: source.timeout, maxBytes: source.maxBytes, caFile: source.caFile, redirects: source.redirects)
    }

    /// The body of a 2xx answer. Prometheus answers a bad query with 400 or 422 and a JSON error naming its type,
    /// which is the better reason.
    private static func answer(_ request: FetchRequest) throws(SourceFailure) -> [UInt8] {
        let response: FetchResponse
        switch HTTPFetcher.perform(request) {
        case .failure(let failure): throw .transfer(failure.description)
        case .success(let success): response = success
        }
        if (200..<300).contains(response.status) { return response.body }
        if request.url.contains("/api/v1/query?") {
            do {
                _ = try SourceAnswer.prometheusValue(response.body)
            } catch {
                if case .prometheusError = error { throw error }
            }
        }
        throw .status(response.status)
    }

    /// `base` + `/api/v1/query?query=` + the query, percent-encoded.
    static func queryURL(base: String, query: String) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmed + "/api/v1/query?query=" + percentEncoded(query)
    }

    /// Every byte but the unreserved ones (RFC 3986) as `%XX`.
    package static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E:
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
