import Foundation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI

@Suite("AdminTokens")
struct AdminTokensTests {
    let folder = TemporaryDirectory()

    @Test("with no admin token configured one is generated once, apart from the producer token, mode 0600")
    func generated() throws {
        defer { folder.remove() }
        let first = try AdminTokens.resolve(configured: [], environment: [:], dataDirectory: folder.path)
        #expect(first.generatedTokenPath == folder.path + "/admin-token")
        #expect(first.tokens.count == 1 && first.tokens[0].count == 64)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/admin-token")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try AdminTokens.resolve(configured: [], environment: [:], dataDirectory: folder.path) == first)
        let producer = try ProducerTokens.resolve(configured: [], environment: [:], dataDirectory: folder.path)
        #expect(producer.tokens[0].token != first.tokens[0])
    }

    @Test("configured and environment tokens are used as given and nothing is generated")
    func configured() throws {
        defer { folder.remove() }
        let resolved = try AdminTokens.resolve(
            configured: ["configured-admin-token-1"], environment: ["ROLLBOARD_ADMIN_TOKEN": "environment-admin-token"],
            dataDirectory: folder.path)
        #expect(resolved == AdminTokens(tokens: ["configured-admin-token-1", "environment-admin-token"]))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/admin-token"))
    }
}
