import Dispatch
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// `/api/v1/metrics` and `/api/v1/metrics/{id}`: the values a reader may see, one metric with its history, and
/// writes of one metric or of a batch, answered `202` once durable.
struct MetricsHandler: Sendable {
    let store: any ChangeLog

    /// Every value the request may read: those shown on a dashboard it may see.
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let catalog = context.configuration.catalog
        let access = context.access
        let credential = access.credential(of: context.request)
        let visible = { (id: String) in access.decide(valueOf: id, credential).isGranted }
        let metrics = store.all().filter { catalog.kind(of: $0.id) == .metric && visible($0.id) }.map(ValueJSON.metric)
        let wheels = store.allWheels().filter { catalog.kind(of: $0.id) == .wheel && visible($0.id) }
            .map { ValueJSON.wheel($0) }
        respond(
            JSONResponse.ok(
                .object([
                    JSONMember("epoch", .string(store.epoch)),
                    JSONMember("seq", .number(store.lastSeq)),
                    JSONMember("metrics", .array(metrics)),
                    JSONMember("wheels", .array(wheels)),
                ])))
    }

    func get(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        guard let metric = store.current(id) else {
            let unset = ValueJSON.unset(id, ["value", "seq", "updatedAt"], then: [JSONMember("history", .array([]))])
            return respond(JSONResponse.ok(unset))
        }
        let history = store.history(id).map { entry in
            JSONValue.object([
                JSONMember("value", .number(entry.value)),
                JSONMember("seq", .number(entry.seq)),
                JSONMember("updatedAt", .string(iso8601(entry.updatedAt))),
            ])
        }
        guard case .object(var members) = ValueJSON.metric(metric) else {
            preconditionFailure("metric JSON is an object")
        }
        members.append(JSONMember("history", .array(history)))
        if let source = SourceConfiguration.feeding(id, in: context.configuration.sources) {
            members.append(JSONMember("source", .string(source.id)))
        }
        respond(JSONResponse.ok(.object(members)))
    }

    /// Where series answers are built: off the connection loops, so a read never holds up the screens, probes and
    /// commits that share its loop, and reads run side by side rather than one behind another. Utility QoS: the
    /// loops come first.
    static let seriesReads = DispatchQueue(label: "rollboard.series-reads", qos: .utility, attributes: .concurrent)

    /// `GET /api/v1/metrics/{id}/series`: one page of the metric's raw changes, or of its rollups merged to `step`,
    /// within `from ..< to`, and `next`, the query of the page after it (`null` on the last page). The query is
    /// checked here; the answer is built on ``seriesReads``.
    func series(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let query = try SeriesRequest.parse(context.request.query, now: context.clock.wall.now())
        let id = context.parameter("id")
        let store = store
        Self.seriesReads.async { respond(JSONResponse.ok(Self.seriesAnswer(id, query, store))) }
    }

    static func seriesAnswer(_ id: String, _ query: SeriesRequest, _ store: any ChangeLog) -> JSONValue {
        var members = [
            JSONMember("id", .string(id)),
            JSONMember("from", .string(iso8601(query.from))),
            JSONMember("to", .string(iso8601(query.to))),
            JSONMember("step", .string(query.stepText)),
        ]
        let path = "/api/v1/metrics/\(id)/series?"
        switch query.step {
        case .raw:
            // The snapshot (and the series it shares with the store) is let go before the answer is written out.
            let (points, more) = {
                let snapshot = store.snapshot
                return snapshot.series(id).page(
                    from: query.from, to: query.to, after: query.after, limit: query.limit,
                    limits: snapshot.seriesLimits)
            }()
            members.append(JSONMember("truncated", .bool(more)))
            members.append(
                JSONMember(
                    "points",
                    .array(
                        points.map { point in
                            .object([
                                JSONMember("t", .string(iso8601(point.time))),
                                JSONMember("value", .number(point.value)),
                                JSONMember("seq", .number(point.seq)),
                            ])
                        })))
            let next = more ? points.last.map { path + query.next(after: $0.seq) } : nil
            members.append(JSONMember("next", next.map(JSONValue.string) ?? .null))
        case .rollup(let seconds):
            let (buckets, nextStart) = store.snapshot.series(id).bucketPage(
                from: query.from, to: query.to, step: seconds, limit: query.limit)
            members.append(JSONMember("truncated", .bool(nextStart != nil)))
            members.append(
                JSONMember(
                    "buckets",
                    .array(
                        buckets.map { bucket in
                            .object([
                                JSONMember("t", .string(iso8601(Double(bucket.start)))),
                                JSONMember("first", .number(bucket.first)),
                                JSONMember("last", .number(bucket.last)),
                                JSONMember("min", .number(bucket.min)),
                                JSONMember("max", .number(bucket.max)),
                                JSONMember("count", .number(Double(bucket.count))),
                                // Values a tile takes can be near the largest double; their sum can overflow.
                                JSONMember(
                                    "increments",
                                    bucket.incrementSum.isFinite ? .number(bucket.incrementSum) : .null),
                            ])
                        })))
            members.append(JSONMember("next", nextStart.map { .string(path + query.next(from: $0)) } ?? .null))
        }
        return .object(members)
    }

    func post(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let update = try MetricUpdateRequest.update(
            try JSONBody.object(context.request), id: context.parameter("id"), field: "",
            catalog: context.configuration.catalog)
        let request = try commitRequest([update], context)
        let respond = CommitDeadline.answer(context, respond)
        store.commitMetrics(request) { result in
            respond(Self.answer(result) { ValueJSON.written($0.metrics[0]) })
        }
    }

    func postBatch(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        guard let token = context.producerToken else { preconditionFailure("a batch route authenticates first") }
        let updates = try MetricUpdateRequest.batch(
            try JSONBody.object(context.request), catalog: context.configuration.catalog, token: token,
            limit: context.configuration.server.limits.maxBatchUpdates)
        let request = try commitRequest(updates, context)
        let respond = CommitDeadline.answer(context, respond)
        store.commitMetrics(request) { result in
            respond(
                Self.answer(result, items: "updates") { outcome in
                    .object([
                        JSONMember("seq", .number(outcome.seq)),
                        JSONMember("updates", .array(outcome.metrics.map(ValueJSON.written))),
                    ])
                })
        }
    }

    /// `updates` with the request's `Idempotency-Key`, and the tiles' rule for an increment's total.
    private func commitRequest(_ updates: [MetricUpdate], _ context: RequestContext) throws(APIError)
        -> MetricCommitRequest
    {
        let catalog = context.configuration.catalog
        return MetricCommitRequest(
            metrics: updates.map(\.stored), requestKey: try MetricUpdateRequest.idempotencyKey(context.request),
            problem: { id, total in catalog.problem(showing: total, as: id) })
    }

    /// 202 with `body` of the outcome (and `Idempotent-Replayed: true` when every item is an earlier answer), 503
    /// when the log could not commit, 422 naming the field (`items[i].field`) the log refused.
    static func answer(
        _ result: Result<MetricCommitOutcome, MetricCommitError>, items: String? = nil,
        _ body: (MetricCommitOutcome) -> JSONValue
    ) -> HTTPResponse {
        switch result {
        case .success(let outcome):
            var response = JSONResponse.accepted(body(outcome))
            if outcome.replayed.allSatisfy({ $0 }) { response.headers.add(name: "Idempotent-Replayed", value: "true") }
            return response
        case .failure(.store(let error)):
            return APIError.storeUnavailable(error).response
        case .failure(.refused(let item, let field, let reason)):
            let place = items.flatMap { items in item.map { "\(items)[\($0)].\(field)" } } ?? field
            return APIError.invalidValue("\(place): \(reason)").response
        case .failure(.repeatedEventID(let item, let earlier)):
            let items = items ?? "items"
            return APIError.invalidValue(
                "\(items)[\(item)].eventId: repeats \(items)[\(earlier)].eventId (a batch may give an eventId once)"
            ).response
        }
    }
}
