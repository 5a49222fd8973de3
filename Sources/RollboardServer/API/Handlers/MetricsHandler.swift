import RollboardNet

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

    func post(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let update = try MetricUpdateRequest.update(
            try JSONBody.object(context.request), id: context.parameter("id"), field: "",
            catalog: context.configuration.catalog)
        let respond = CommitDeadline.answer(context, respond)
        store.append([update]) { result in
            respond(JSONResponse.accepted(result) { ValueJSON.written($0[0]) })
        }
    }

    func postBatch(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        guard let token = context.producerToken else { preconditionFailure("a batch route authenticates first") }
        let updates = try MetricUpdateRequest.batch(
            try JSONBody.object(context.request), catalog: context.configuration.catalog, token: token,
            limit: context.configuration.server.limits.maxBatchUpdates)
        let respond = CommitDeadline.answer(context, respond)
        store.append(updates) { result in
            respond(
                JSONResponse.accepted(result) { stored in
                    .object([
                        JSONMember("seq", .number(stored[stored.count - 1].seq)),
                        JSONMember("updates", .array(stored.map(ValueJSON.written))),
                    ])
                })
        }
    }
}
