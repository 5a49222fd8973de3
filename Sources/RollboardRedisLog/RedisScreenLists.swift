package import RollboardRedis

/// Each node's list of its connected screens, published to Redis every few seconds on the change log's one link, so
/// that any node can list the cluster's screens (`GET /api/v1/screens?cluster`, see `docs/cluster.md`).
///
/// - `{P}:screens:nodes`: a set of the publishing nodes' ids.
/// - `{P}:screens:ID`: that node's list (a JSON array), with `PX` a few publishing periods: a node that stops
///   publishing drops out of the cluster's list by itself.
package final class RedisScreenLists: Sendable {
    private let link: RedisChangeLog

    /// Seconds a command waits for Redis's answer.
    static let timeout = 2.0
    /// Stores a node's list for ARGV[2] milliseconds and names the node in the set.
    static let publishScript = """
        redis.call('SET', KEYS[1] .. ':' .. ARGV[1], ARGV[3], 'PX', ARGV[2])
        redis.call('SADD', KEYS[1] .. ':nodes', ARGV[1])
        return 1
        """
    /// Every node's list still alive, as `ID` and list pairs; the ids whose list ran out leave the set.
    static let readScript = """
        local found = {}
        for _, id in ipairs(redis.call('SMEMBERS', KEYS[1] .. ':nodes')) do
            local list = redis.call('GET', KEYS[1] .. ':' .. id)
            if list then
                table.insert(found, id)
                table.insert(found, list)
            else
                redis.call('SREM', KEYS[1] .. ':nodes', id)
            end
        end
        return found
        """

    package init(link: RedisChangeLog) {
        self.link = link
    }

    /// Publishes node `id`'s list (a JSON array) for `milliseconds`.
    package func publish(
        _ id: String, list: String, milliseconds: Int, completion: @escaping @Sendable (Bool) -> Void
    ) {
        let command = ["EVAL", Self.publishScript, "1", link.keys.screenLists, id, "\(milliseconds)", list]
        link.send(command, timeout: Self.timeout) { result in
            if case .success(.integer(1)) = result { completion(true) } else { completion(false) }
        }
    }

    /// Every node's list still alive, by node id.
    package func read(completion: @escaping @Sendable (Result<[(id: String, list: String)], RedisError>) -> Void) {
        link.send(["EVAL", Self.readScript, "1", link.keys.screenLists], timeout: Self.timeout) { result in
            completion(
                result.flatMap { reply in
                    guard case .array(let parts) = reply, parts.count % 2 == 0 else {
                        return .failure(.protocolError("unexpected answer to the screen lists' script: \(reply)"))
                    }
                    let strings = parts.map { $0.string ?? "" }
                    return .success(stride(from: 0, to: strings.count, by: 2).map { (strings[$0], strings[$0 + 1]) })
                })
        }
    }
}
