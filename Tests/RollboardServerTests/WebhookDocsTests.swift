import Foundation
import Testing

@testable import RollboardConfig

/// docs/webhooks.md and the repository's example webhook agree with the code.
@Suite("Webhook docs")
struct WebhookDocsTests {
    @Test("docs/webhooks.md states the defaults as WebhookConfiguration.Defaults has them")
    func documentedDefaults() throws {
        let text = try String(
            contentsOf: DefaultsTests.repositoryRoot.appendingPathComponent("docs/webhooks.md"), encoding: .utf8)
        let stated = [
            "| `verify.tolerance` | `\(Int(WebhookConfiguration.Defaults.tolerance))s` |",
            "| `maxBodyBytes` | `\(WebhookConfiguration.Defaults.maxBodyBytes)` |",
        ]
        for line in stated { #expect(text.contains(line), "docs/webhooks.md lacks \(line)") }
    }

    @Test("the repository's configuration loads with its example webhooks, without their secrets in the environment")
    func repositoryConfiguration() throws {
        let configuration = try RollboardConfiguration.load(
            directory: DefaultsTests.repositoryRoot.appendingPathComponent("config").path)
        let webhook = try #require(configuration.webhooks.first { $0.id == "stripe" })
        #expect(webhook.verify.secretVariable == "STRIPE_WEBHOOK_SECRET")
        let github = try #require(configuration.webhooks.first { $0.id == "github" })
        #expect(github.verify.preset == .github && github.verify.secretVariable == "GITHUB_WEBHOOK_SECRET")
        #expect(github.event == .header("X-GitHub-Delivery"))
    }
}
