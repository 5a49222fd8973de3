import Foundation
import Testing
@testable import RollboardNet

@Suite("TLS context")
struct TLSContextTests {
    @Test("loads a PEM certificate chain and matching key")
    func loadsCertificateAndKey() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        _ = try TLSContext(server: certificate.configuration)
    }

    @Test("names the missing file when the certificate does not exist")
    func missingCertificate() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let configuration = TLSConfiguration(
            certificateChainPath: certificate.folder + "/absent.pem", privateKeyPath: certificate.keyPath)
        let error = try #require(throws: TLSError.self) { try TLSContext(server: configuration) }
        #expect(error.code == .missingFile)
        #expect(error.detail.contains("absent.pem"))
    }

    @Test("names the missing file when the key does not exist")
    func missingKey() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let configuration = TLSConfiguration(
            certificateChainPath: certificate.certificatePath, privateKeyPath: certificate.folder + "/nokey.pem")
        let error = try #require(throws: TLSError.self) { try TLSContext(server: configuration) }
        #expect(error.code == .missingFile)
        #expect(error.detail.contains("nokey.pem"))
    }

    @Test("reports an unreadable certificate file (a folder, which even root cannot read as a file)")
    func unreadableCertificate() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let configuration = TLSConfiguration(certificateChainPath: certificate.folder, privateKeyPath: certificate.keyPath)
        let error = try #require(throws: TLSError.self) { try TLSContext(server: configuration) }
        #expect(error.code == .unreadableFile)
    }

    @Test("reports a certificate file that holds no certificate")
    func invalidCertificate() throws {
        let certificate = try TestCertificate()
        defer { certificate.remove() }
        let garbage = certificate.folder + "/garbage.pem"
        try "not a certificate\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        let configuration = TLSConfiguration(certificateChainPath: garbage, privateKeyPath: certificate.keyPath)
        let error = try #require(throws: TLSError.self) { try TLSContext(server: configuration) }
        #expect(error.code == .invalidCertificate)
    }

    @Test("reports a key that does not belong to the certificate")
    func mismatchedKey() throws {
        let first = try TestCertificate()
        let second = try TestCertificate()
        defer {
            first.remove()
            second.remove()
        }
        let configuration = TLSConfiguration(certificateChainPath: first.certificatePath, privateKeyPath: second.keyPath)
        let error = try #require(throws: TLSError.self) { try TLSContext(server: configuration) }
        #expect(error.code == .keyMismatch)
    }
}
