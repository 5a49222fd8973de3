import Foundation
import Testing
@testable import RollboardNet

@Suite("TLS context")
struct TLSContextTests {
    /// The error a server context refuses `configuration(certificate)` with, `certificate` a fresh self-signed one
    /// whose files are removed afterwards.
    private func refusal(_ configuration: (TestCertificate) throws -> TLSConfiguration) throws -> TLSError {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let configured = try configuration(certificate)
        return try #require(throws: TLSError.self) { try TLSContext(server: configured) }
    }

    @Test("loads a PEM certificate chain and matching key")
    func loadsCertificateAndKey() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        _ = try TLSContext(server: certificate.configuration)
    }

    @Test(
        "names the missing file when the certificate or the key does not exist",
        arguments: [(file: "absent.pem", isCertificate: true), (file: "nokey.pem", isCertificate: false)])
    func missingFile(file: String, isCertificate: Bool) throws {
        let error = try refusal {
            TLSConfiguration(
                certificateChainPath: isCertificate ? $0.folder + "/" + file : $0.certificatePath,
                privateKeyPath: isCertificate ? $0.keyPath : $0.folder + "/" + file)
        }
        #expect(error.code == .missingFile)
        #expect(error.detail.contains(file))
    }

    @Test("reports an unreadable certificate file (a folder, which even root cannot read as a file)")
    func unreadableCertificate() throws {
        let error = try refusal { TLSConfiguration(certificateChainPath: $0.folder, privateKeyPath: $0.keyPath) }
        #expect(error.code == .unreadableFile)
    }

    @Test("reports a certificate file that holds no certificate")
    func invalidCertificate() throws {
        let error = try refusal {
            let garbage = $0.folder + "/garbage.pem"
            try "not a certificate\n".write(toFile: garbage, atomically: true, encoding: .utf8)
            return TLSConfiguration(certificateChainPath: garbage, privateKeyPath: $0.keyPath)
        }
        #expect(error.code == .invalidCertificate)
    }

    @Test("reports a key that does not belong to the certificate")
    func mismatchedKey() throws {
        let other = try TestCertificate()
        defer { other.remove() }
        let error = try refusal {
            TLSConfiguration(certificateChainPath: $0.certificatePath, privateKeyPath: other.keyPath)
        }
        #expect(error.code == .keyMismatch)
    }
}
