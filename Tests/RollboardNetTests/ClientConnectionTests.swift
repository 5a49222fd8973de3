import RollboardTestSupport
import Testing

@testable import RollboardNet
@testable import RollboardClient

/// The command-line client's blocking API over an outbound `Connection`, against real listeners.
@Suite("Client connection", .serialized)
struct ClientConnectionTests {
    @Test("writes and reads back 300 KB through an echo server, plain and over TLS, to a host given by name")
    func echoesAndSeesTheEnd() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        for secure in [false, true] {
            try withEchoServer(tls: secure ? certificate.configuration : nil) { server in
                let tls = secure ? ClientTLSOptions(trustedCertificatesPath: certificate.certificatePath) : nil
                let client = try ClientConnection(host: "localhost", port: server.localPort, tls: tls, timeout: 5)
                #expect(client.tlsVersion == (secure ? "TLSv1.3" : nil))
                let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
                try client.write(payload)
                var echoed: [UInt8] = []
                while echoed.count < payload.count {
                    let bytes = try client.read()
                    try #require(!bytes.isEmpty)
                    echoed += bytes
                }
                #expect(echoed == payload)
                client.close()
            }
        }
    }

    @Test("a refused connect and an untrusted certificate fail with what went wrong")
    func failures() throws {
        let port = try LoopbackPort.free()
        #expect(throws: ClientError("cannot connect to 127.0.0.1:\(port): Connection refused")) {
            try ClientConnection(host: "127.0.0.1", port: port, tls: nil, timeout: 5)
        }
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        try withEchoServer(tls: certificate.configuration) { server in
            let error = #expect(throws: ClientError.self) {
                try ClientConnection(
                    host: "localhost", port: server.localPort, tls: ClientTLSOptions(trustedCertificatesPath: nil),
                    timeout: 5)
            }
            #expect(error?.isCertificateRejected == true)
            #expect(error?.description.contains("self-signed certificate") == true)
        }
    }
}
