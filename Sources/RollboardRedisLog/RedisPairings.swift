package import RollboardCore
package import RollboardRedis
package import RollboardStore

/// The cluster's pending pairing codes, kept in Redis on the change log's one link
/// (``RedisChangeLog/send(_:timeout:completion:)``) so that a TV that got its code from one node can be paired
/// through any node (see `docs/pairing.md`). No secret
/// is ever written: a code holds the SHA-256 of the secret the issuing node drew for its TV, and an answer holds the
/// key's id and the TV's page without its key.
///
/// - `{P}:pairing:CODE`: `{"secretHash","node"}`, set `NX PX` (the code's life) by the node that issued it.
/// - `{P}:pairing:answer:HASH`: `{"keyId","url"}`, set by the node that paired the code, read by the node whose TV
///   holds the secret of that hash.
package final class RedisPairings: Sendable {
    /// A pending code as Redis holds it, and how long it had left when it was taken.
    package struct Offer: Sendable, Equatable {
        package var secretHash: String
        package var node: String
        package var milliseconds: Int
    }

    private let link: RedisChangeLog
    /// This node's name in the codes it offers (unique per process).
    package let node: String

    /// Takes a code once, cluster-wide: its value and what was left of its life, and deletes it (`nil` when absent).
    static let takeScript = """
        local value = redis.call('GET', KEYS[1])
        if not value then return false end
        local ttl = redis.call('PTTL', KEYS[1])
        redis.call('DEL', KEYS[1])
        return {value, ttl}
        """

    package init(link: RedisChangeLog, node: String) {
        self.link = link
        self.node = node
    }

    /// The cluster's codes when `store` is a ``RedisChangeLog``, offered by the node named `node`; `nil` for a
    /// journal.
    package convenience init?(_ store: any ChangeLog, node: String) {
        guard let link = store as? RedisChangeLog else { return nil }
        self.init(link: link, node: node)
    }

    /// Offers `code` to the cluster for `milliseconds`: `true` once stored, `false` when another node holds it.
    package func offer(
        _ code: String, secretHash: String, milliseconds: Int,
        completion: @escaping @Sendable (Result<Bool, RedisError>) -> Void
    ) {
        let value = JSONValue.object([JSONMember("secretHash", .string(secretHash)), JSONMember("node", .string(node))])
        send(["SET", link.keys.pairing(code), value.serialized, "NX", "PX", "\(milliseconds)"]) { reply -> Bool? in
            switch reply {
            case .status("OK"): true
            case .null: false
            default: nil
            }
        } completion: {
            completion($0)
        }
    }

    /// Takes `code` (single-use across the cluster): its offer, or `nil` when no node offers it (unknown, expired or
    /// taken).
    package func take(_ code: String, completion: @escaping @Sendable (Result<Offer?, RedisError>) -> Void) {
        send(["EVAL", Self.takeScript, "1", link.keys.pairing(code)]) { reply -> Offer?? in
            if case .null = reply { return .some(nil) }
            guard case .array(let parts) = reply, parts.count == 2, let text = parts[0].string,
                let ttl = parts[1].integerValue, let value = try? JSONParser.parse(Array(text.utf8)),
                case .string(let hash)? = value["secretHash"]
            else { return nil }
            let node = if case .string(let node)? = value["node"] { node } else { "" }
            return .some(Offer(secretHash: hash, node: node, milliseconds: Int(max(ttl, 1))))
        } completion: {
            completion($0)
        }
    }

    /// Offers a taken code again for what was left of its life (its key could not be made); no answer awaited.
    package func restore(_ code: String, _ offer: Offer) {
        let value = JSONValue.object([
            JSONMember("secretHash", .string(offer.secretHash)), JSONMember("node", .string(offer.node)),
        ])
        link.send(["SET", link.keys.pairing(code), value.serialized, "NX", "PX", "\(offer.milliseconds)"]) { _ in }
    }

    /// Tells the node holding the secret of `secretHash` its TV's key id and page, for `milliseconds`.
    package func answer(
        _ secretHash: String, keyID: String, url: String, milliseconds: Int,
        completion: @escaping @Sendable (Result<Void, RedisError>) -> Void
    ) {
        let value = JSONValue.object([JSONMember("keyId", .string(keyID)), JSONMember("url", .string(url))])
        send(["SET", link.keys.pairingAnswer(secretHash), value.serialized, "PX", "\(milliseconds)"]) { reply in
            if case .status("OK") = reply { () } else { nil }
        } completion: {
            completion($0)
        }
    }

    /// The answer for `secretHash`, if its code was paired: the key's id and the page without its key.
    package func answer(
        for secretHash: String,
        completion: @escaping @Sendable (Result<(keyID: String, url: String)?, RedisError>) -> Void
    ) {
        send(["GET", link.keys.pairingAnswer(secretHash)]) { reply -> (keyID: String, url: String)?? in
            if case .null = reply { return .some(nil) }
            guard let text = reply.string, let value = try? JSONParser.parse(Array(text.utf8)),
                case .string(let keyID)? = value["keyId"], case .string(let url)? = value["url"]
            else { return nil }
            return .some((keyID, url))
        } completion: {
            completion($0)
        }
    }

    /// Deletes the answer for `secretHash` once its TV has it; no answer awaited.
    package func forgetAnswer(_ secretHash: String) {
        link.send(["DEL", link.keys.pairingAnswer(secretHash)]) { _ in }
    }

    /// Sends `command`; `read` turns the reply into a value, `nil` for a reply that makes no sense (an error reply
    /// included), which fails like a lost link.
    private func send<Value: Sendable>(
        _ command: [String], read: @escaping @Sendable (RedisReply) -> Value?,
        completion: @escaping @Sendable (Result<Value, RedisError>) -> Void
    ) {
        link.send(command) { result in
            completion(
                result.flatMap { reply in
                    read(reply).map { .success($0) }
                        ?? .failure(.protocolError("unexpected answer to \(command[0]): \(reply)"))
                })
        }
    }
}
