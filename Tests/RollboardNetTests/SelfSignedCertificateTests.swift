import COpenSSL
import Foundation
import Testing
@testable import RollboardNet

@Suite("Self-signed certificate")
struct SelfSignedCertificateTests {
    /// Runs `body` with the X.509 certificate of a fresh self-signed pair, read back from its PEM file; the files and
    /// the certificate are freed afterwards.
    private func withCertificate(_ body: (OpaquePointer) throws -> Void) throws {
        let files = try TestCertificate()
        defer { files.remove() }
        let bio = try #require(BIO_new_file(files.certificatePath, "r"))
        defer { BIO_free(bio) }
        let certificate = try #require(PEM_read_bio_X509(bio, nil, nil, nil))
        defer { X509_free(certificate) }
        try body(certificate)
    }

    @Test("is an X.509 v3 certificate with an EC P-256 key")
    func keyType() throws {
        try withCertificate { certificate in
            #expect(X509_get_version(certificate) == 2)
            let key = try #require(X509_get0_pubkey(certificate))
            #expect(EVP_PKEY_get_base_id(key) == EVP_PKEY_EC)
            #expect(EVP_PKEY_get_bits(key) == 256)
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            #expect(EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1)
            #expect(String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1")
        }
    }

    @Test("names localhost, 127.0.0.1 and ::1")
    func subjectAlternativeNames() throws {
        try withCertificate { certificate throws in
            #expect(X509_check_host(certificate, "localhost", 9, 0, nil) == 1)
            #expect(X509_check_ip_asc(certificate, "127.0.0.1", 0) == 1)
            #expect(X509_check_ip_asc(certificate, "::1", 0) == 1)
            #expect(X509_check_host(certificate, "example.com", 11, 0, nil) != 1)
        }
    }

    @Test("is valid now and for about a year")
    func validity() throws {
        try withCertificate { certificate throws in
            var days: Int32 = 0
            var seconds: Int32 = 0
            #expect(ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(certificate), X509_get0_notAfter(certificate)) == 1)
            #expect((364...366).contains(days))
            #expect(X509_cmp_current_time(X509_get0_notBefore(certificate)) < 0)
            #expect(X509_cmp_current_time(X509_get0_notAfter(certificate)) > 0)
        }
    }

    @Test("writes the private key readable by its owner only")
    func keyFileMode() throws {
        let files = try TestCertificate()
        defer { files.remove() }
        let attributes = try FileManager.default.attributesOfItem(atPath: files.keyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("produces a key that matches its certificate")
    func keyMatches() throws {
        let files = try TestCertificate()
        defer { files.remove() }
        _ = try TLSContext(server: files.configuration)
    }
}
