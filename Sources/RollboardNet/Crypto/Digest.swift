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

    /// The 32-byte HMAC-SHA256 (RFC 2104) of `message` under `key`, for signed webhooks.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        // An empty array may have no storage; OpenSSL wants a pointer even for zero bytes.
        let keyBytes = key.isEmpty ? [0] : key
        let messageBytes = message.isEmpty ? [0] : message
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            EVP_Q_mac(
                nil, "HMAC", nil, "SHA256", nil, keyBuffer.baseAddress, key.count, messageBytes, message.count, &mac,
                32, &length)
        }
        precondition(result != nil && length == 32, "OpenSSL HMAC-SHA256 failed")
        return mac
    }
}
