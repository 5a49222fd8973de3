internal import COpenSSL

/// Message digests from the system's OpenSSL, for callers that keep only a digest of a secret.
public enum Digest {
    /// The 32-byte SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        precondition(status == 1 && length == 32, "OpenSSL SHA-256 failed")
        return Array(digest[..<32])
    }
}
