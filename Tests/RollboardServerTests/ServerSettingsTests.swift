import RollboardClient
import RollboardNet
import Testing
import Yams

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardServer

@Suite("Server settings")
struct ServerSettingsTests {
    @Test("the transport gets the address, the limits, the watermarks and the connection cap from the settings")
    func transportConfigurationCarriesTheSettings() {
        var settings = ServerSettings()
        settings.host = "127.0.0.1"
        settings.port = 9443
        settings.limits.maxBodyBytes = 4096
        settings.limits.outboundHighWatermark = 100_000
        settings.limits.outboundLowWatermark = 10_000
        settings.limits.maxConnections = 77
        settings.limits.maxConnectionsPerAddress = 7
        let transport = settings.transportConfiguration(tls: nil)
        #expect(transport.host == "127.0.0.1")
        #expect(transport.port == 9443)
        #expect(transport.tls == nil)
        #expect(transport.http.maxBodyBytes == 4096)
        #expect(transport.outboundHighWatermark == 100_000)
        #expect(transport.outboundLowWatermark == 10_000)
        #expect(transport.maxConnections == 77)
        #expect(transport.maxConnectionsPerAddress == 7)
        #expect(transport.webSocket.deflate?.minimumCompressedBytes == ServerSettings.minimumCompressedMessageBytes)
    }

    @Test("redis: in server.yaml takes a URL and optional prefix, stream length and CA file; mistakes name the field", arguments: [
        ("redis:\n  url: redis://:pw@cache:6380/2\n  keyPrefix: shop\n  streamLength: 5000\n", nil as String?),
        ("redis:\n  url: http://cache\n", "redis.url"),
        ("redis:\n  keyPrefix: shop\n", "redis.url"),
        ("redis:\n  url: redis://cache\n  keyPrefix: \"{x}\"\n", "redis.keyPrefix"),
        ("redis:\n  url: redis://cache\n  streamLength: 10\n", "redis.streamLength"),
        ("redis:\n  url: redis://cache\n  ttl: 5\n", "redis.ttl"),
    ])
    func redisSettings(yaml: String, problemField: String?) throws {
        let problems = ConfigurationProblems()
        let settings = ServerSettings(node: try #require(try Yams.compose(yaml: yaml)), file: "server.yaml", problems: problems)
        if let problemField {
            #expect(problems.lines.contains { $0.contains(problemField) }, "\(problems.lines)")
        } else {
            #expect(problems.lines.isEmpty, "\(problems.lines)")
            #expect(settings.redis == RedisSettings(url: "redis://:pw@cache:6380/2", keyPrefix: "shop", streamLength: 5000))
        }
    }
}
