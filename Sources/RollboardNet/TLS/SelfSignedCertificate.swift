#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import COpenSSL

/// First-run certificates: a self-signed X.509 v3 certificate for local use, made with OpenSSL.
public enum SelfSignedCertificate {
    /// The names every generated certificate is valid for.
    public static let subjectAlternativeNames = "DNS:localhost,IP:127.0.0.1,IP:::1"

    /// Writes a new EC P-256 private key (file mode 0600) and a self-signed certificate for `localhost`,
    /// `127.0.0.1` and `::1`, valid from now for `validityDays`, as PEM files. Existing files are replaced.
    public static func generate(
        certificatePath: String,
        privateKeyPath: String,
        commonName: String = "localhost",
        validityDays: Int = 365
    ) throws(TLSError) {
        ERR_clear_error()
        guard let key = COpenSSL_EVP_EC_gen_P256() else {
            throw .openSSL(.certificateGenerationFailed, "cannot generate an EC P-256 key")
        }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else {
            throw .openSSL(.certificateGenerationFailed, "X509_new failed")
        }
        defer { X509_free(certificate) }

        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else {
            throw .openSSL(.certificateGenerationFailed, "cannot make a random serial number")
        }
        serial[0] &= 0x7f  // positive
        guard let serialNumber = BN_bin2bn(serial, Int32(serial.count), nil) else {
            throw .openSSL(.certificateGenerationFailed, "cannot make a serial number")
        }
        defer { BN_free(serialNumber) }
        let seconds = validityDays * 24 * 60 * 60
        guard X509_set_version(certificate, 2) == 1,  // v3
            BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(certificate)) != nil,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), seconds) != nil,
            X509_set_pubkey(certificate, key) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", COpenSSL_MBSTRING_ASC(), commonName, -1, -1, 0) == 1,
            X509_NAME_add_entry_by_txt(name, "O", COpenSSL_MBSTRING_ASC(), "Rollboard self-signed", -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1
        else {
            throw .openSSL(.certificateGenerationFailed, "cannot fill in the certificate")
        }
        let extensions: [(Int32, String)] = [
            (NID_subject_alt_name, subjectAlternativeNames),
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
        ]
        for (nid, value) in extensions where COpenSSL_X509_add_extension(certificate, nid, value) != 1 {
            throw .openSSL(.certificateGenerationFailed, "cannot add the extension \(value)")
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else {
            throw .openSSL(.certificateGenerationFailed, "cannot sign the certificate")
        }

        let keyPEM = try pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        let certificatePEM = try pem { PEM_write_bio_X509($0, certificate) }
        try write(keyPEM, to: privateKeyPath, mode: 0o600)
        try write(certificatePEM, to: certificatePath, mode: 0o644)
    }

    private static func pem(_ body: (OpaquePointer) -> Int32) throws(TLSError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw .openSSL(.certificateGenerationFailed, "BIO_new failed")
        }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else {
            throw .openSSL(.certificateGenerationFailed, "cannot encode PEM")
        }
        let pending = COpenSSL_BIO_pending(bio)
        return [UInt8](unsafeUninitializedCapacity: pending) { buffer, count in
            count = max(0, Int(BIO_read(bio, buffer.baseAddress, Int32(pending))))
        }
    }

    /// Writes `bytes` to a fresh file created with `mode` (the mode is forced even if the file existed).
    private static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TLSError) {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw TLSError(.certificateGenerationFailed, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else {
            throw TLSError(.certificateGenerationFailed, "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw TLSError(.certificateGenerationFailed, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
