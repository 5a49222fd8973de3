import Foundation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("ProducerTokens")
struct ProducerTokensTests {
    let folder = TemporaryDirectory()

    @Test("with no token configured one is generated once, stored with mode 0600, and reused")
    func generated() throws {
        defer { folder.remove() }
        let data = folder.path + "/data"
        let first = try ProducerTokens.resolve(configured: [], environment: [:], dataDirectory: data)
        #expect(first.generatedTokenPath == data + "/producer-token")
        #expect(first.tokens.count == 1)
        #expect(first.tokens[0].token.count == 64)
        #expect(first.tokens[0].metrics == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: data + "/producer-token")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let second = try ProducerTokens.resolve(configured: [], environment: [:], dataDirectory: data)
        #expect(second == first)
        let other = try ProducerTokens.loadOrGenerate(path: folder.path + "/other-token")
        #expect(other != first.tokens[0].token)
    }

    @Test("the environment token is accepted and no token is generated")
    func environment() throws {
        defer { folder.remove() }
        let resolved = try ProducerTokens.resolve(
            configured: [ProducerToken(token: "configured-0123456789", metrics: ["a"])],
            environment: ["ROLLBOARD_PRODUCER_TOKEN": "from-the-environment"], dataDirectory: folder.path
        )
        #expect(
            resolved.tokens == [
                ProducerToken(token: "configured-0123456789", metrics: ["a"]),
                ProducerToken(token: "from-the-environment"),
            ])
        #expect(resolved.generatedTokenPath == nil)
        #expect(folder.files("").isEmpty)
    }

    @Test("a token file readable by others is refused")
    func looseMode() throws {
        defer { folder.remove() }
        let path = folder.path + "/producer-token"
        try folder.write("producer-token", Array("secret\n".utf8))
        chmod(path, 0o644)
        #expect(throws: ProducerTokenError.self) { try ProducerTokens.loadOrGenerate(path: path) }
        chmod(path, 0o600)
        #expect(try ProducerTokens.loadOrGenerate(path: path) == "secret")
    }

    @Test("a token restricted to ids allows only those")
    func restriction() {
        let token = ProducerToken(token: "t", metrics: ["revenue"])
        #expect(token.allows("revenue"))
        #expect(!token.allows("orders"))
        #expect(ProducerToken(token: "t").allows("orders"))
    }
}
