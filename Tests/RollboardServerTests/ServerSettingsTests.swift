import RollboardNet
import Testing

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
}
