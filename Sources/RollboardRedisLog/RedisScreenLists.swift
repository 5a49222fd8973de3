package import RollboardRedis

/// Each node's list of its connected screens, kept in Redis while some node is asked for the cluster's screens
/// (`GET /api/v1/screens?cluster`, see `docs/cluster.md`), on the change log's one link. Nobody asking, nothing is
/// written: a wall left alone costs Redis and its append-only file no screen list at all.
///
/// - `{P}:screens:watched`: set (`PX`) by each cluster-wide read; while it exists, every node publishes its list.
/// - `{P}:screens`: a hash, per node id `UNTIL LIST` (the Redis time in milliseconds the list is good until, and the
///   list as a JSON array); a node that stops publishing drops out once its time passed, and the hash goes when every
///   node stopped.
package final class RedisScreenLists: Sendable {
    private let link: RedisChangeLog

    /// Stores node ARGV[1]'s list ARGV[3], good for ARGV[2] milliseconds of Redis's clock; the hash lives at least as
    /// long.
    static let publishScript = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        redis.call('HSET', KEYS[1], ARGV[1], string.format('%.0f', now + tonumber(ARGV[2])) .. ' ' .. ARGV[3])
        if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return 1
        """
    /// Marks the lists watched for ARGV[1] milliseconds; answers whether they already were (1 or 0), then every list
    /// still good as id and list pairs. The lists whose time passed are removed.
    static let readScript = """
        local watched = redis.call('SET', KEYS[2], '1', 'PX', ARGV[1], 'GET') and 1 or 0
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local found = {watched}
        local stored = redis.call('HGETALL', KEYS[1])
        for i = 1, #stored, 2 do
            local space = string.find(stored[i + 1], ' ', 1, true)
            if space and tonumber(string.sub(stored[i + 1], 1, space - 1)) > now then
                table.insert(found, stored[i])
                table.insert(found, string.sub(stored[i + 1], space + 1))
            else
                redis.call('HDEL', KEYS[1], stored[i])
            end
        end
        return found
        """

    /// What a cluster-wide read found.
    package struct Found: Sendable {
        /// Whether some node had asked within the watch time: if not, the other nodes have not been publishing, and
        /// start within their next period.
        package var wasWatched: Bool
        /// Every node's list still good, by node id.
        package var lists: [(id: String, list: String)]
    }

    package init(link: RedisChangeLog) {
        self.link = link
    }

    /// Whether some node asked for the cluster's screens within the watch time; `nil` when Redis did not answer.
    package func isWatched(completion: @escaping @Sendable (Bool?) -> Void) {
        link.send(["EXISTS", link.keys.screensWatched]) { result in
            guard case .success(.integer(let count)) = result else { return completion(nil) }
            completion(count > 0)
        }
    }

    /// Publishes node `id`'s list (a JSON array) for `milliseconds`.
    package func publish(
        _ id: String, list: String, milliseconds: Int, completion: @escaping @Sendable (Bool) -> Void
    ) {
        let command = ["EVAL", Self.publishScript, "1", link.keys.screenLists, id, "\(milliseconds)", list]
        link.send(command) { result in
            if case .success(.integer(1)) = result { completion(true) } else { completion(false) }
        }
    }

    /// Every node's list still good, the lists marked watched for `watchMilliseconds` from now.
    package func read(watchMilliseconds: Int, completion: @escaping @Sendable (Result<Found, RedisError>) -> Void) {
        let keys = [link.keys.screenLists, link.keys.screensWatched]
        link.send(["EVAL", Self.readScript, "2"] + keys + ["\(watchMilliseconds)"]) { result in
            completion(
                result.flatMap { reply in
                    guard case .array(let parts) = reply, case .integer(let watched)? = parts.first,
                        parts.count % 2 == 1
                    else {
                        return .failure(.protocolError("unexpected answer to the screen lists' script: \(reply)"))
                    }
                    let strings = parts.dropFirst().map { $0.string ?? "" }
                    let lists = stride(from: 0, to: strings.count, by: 2).map { (strings[$0], strings[$0 + 1]) }
                    return .success(Found(wasWatched: watched == 1, lists: lists))
                })
        }
    }
}
