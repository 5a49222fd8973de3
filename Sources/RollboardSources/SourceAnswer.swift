package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardStore

/// Reading a source's values out of an upstream's answer: pure, so every way an answer can be wrong is tested
/// without a network.
enum SourceAnswer {
    /// The number at each metric's JSON Pointer in a `json` source's answer, or why there is none (the first metric
    /// that fails names the reason: a source's values are taken whole or not at all).
    static func jsonValues(_ body: [UInt8], metrics: [SourceConfiguration.Metric]) throws(SourceFailure)
        -> [String: Double]
    {
        try jsonValues(parse(body), metrics: metrics)
    }

    /// A `json` source's metrics and leaderboards out of one answer.
    static func jsonSourceValues(_ body: [UInt8], source: SourceConfiguration) throws(SourceFailure) -> SourceValues {
        let document = try parse(body)
        var values = SourceValues(metrics: try jsonValues(document, metrics: source.metrics))
        for board in source.leaderboards {
            values.leaderboards[board.leaderboard] = try jsonLeaderboard(document, board, cap: source.maxRows)
        }
        return values
    }

    static func jsonValues(_ document: JSONValue, metrics: [SourceConfiguration.Metric]) throws(SourceFailure)
        -> [String: Double]
    {
        var values: [String: Double] = [:]
        for metric in metrics {
            let pointer = metric.pointer ?? ""
            guard let found = resolve(pointer, in: document) else {
                throw .pointerFindsNothing(metric: metric.metric, pointer: pointer)
            }
            guard case .number(let number) = found else {
                throw .pointerFindsNoNumber(metric: metric.metric, pointer: pointer, kind: found.kindDescription)
            }
            guard number.double.isFinite else {
                throw .pointerFindsNoNumber(metric: metric.metric, pointer: pointer, kind: "out of range")
            }
            values[metric.metric] = number.double
        }
        return values
    }

    /// The one number of a Prometheus instant query's answer (`/api/v1/query`): a `scalar`, or a `vector` of exactly
    /// one sample.
    static func prometheusValue(_ body: [UInt8]) throws(SourceFailure) -> Double {
        let document = try parse(body)
        guard case .string(let status)? = document["status"] else { throw .prometheusError("no status") }
        guard status == "success" else {
            var reason = status
            if case .string(let type)? = document["errorType"] { reason = type }
            if case .string(let message)? = document["error"], let shown = shown(message) { reason += ": " + shown }
            throw .prometheusError(reason)
        }
        guard let data = document["data"], case .string(let type)? = data["resultType"], let result = data["result"]
        else { throw .prometheusError("no data") }
        let sample: JSONValue
        switch (type, result) {
        case ("scalar", _):
            sample = result
        case ("vector", .array(let series)):
            guard let first = series.first else { throw .emptyResult }
            guard series.count == 1 else { throw .manySeries(series.count) }
            guard let value = first["value"] else { throw .prometheusError("no value") }
            sample = value
        default:
            throw .prometheusError("result type \(type) is not scalar or vector")
        }
        // A sample is [time, "value"]: the value is a string, since it may be NaN or ±Inf.
        guard case .array(let pair) = sample, pair.count == 2, case .string(let text) = pair[1] else {
            throw .prometheusError("malformed sample")
        }
        guard let value = Double(text), value.isFinite else { throw .notANumber("\(text)") }
        return value
    }

    /// The answer as JSON: it must be UTF-8 first.
    static func parse(_ body: [UInt8]) throws(SourceFailure) -> JSONValue {
        guard String(validating: body, as: UTF8.self) != nil else { throw .invalidUTF8 }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .invalidJSON
        }
    }

    /// Prometheus' own error message as the wall and the log may show it: control characters as spaces, at most
    /// ``maxErrorMessage`` characters (`…` when cut); `nil` when nothing is left.
    static func shown(_ message: String) -> String? {
        let spaced = message.map { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : character
        }
        let flat = String(spaced.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard !flat.isEmpty else { return nil }
        return flat.count <= maxErrorMessage ? flat : flat.prefix(maxErrorMessage - 1) + "…"
    }

    /// The most characters of Prometheus' error message a failure keeps.
    static let maxErrorMessage = 200

    /// What `pointer` (RFC 6901) refers to in `document` (``JSONPointer/resolve(_:in:)``).
    static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        JSONPointer.resolve(pointer, in: document)
    }

    /// The pointer's reference tokens (``JSONPointer/referenceTokens(_:)``).
    static func referenceTokens(_ pointer: String) -> [String]? {
        JSONPointer.referenceTokens(pointer)
    }

}
