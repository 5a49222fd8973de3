internal import COpenSSL

/// SHA-256 digests, for secrets the server keeps only as digests (viewer keys).
enum SHA256 {
    /// The 32-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_sha256(), nil)
        precondition(status == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return Array(digest[..<32])
    }

    /// The digest of `text`'s UTF-8 bytes, as lowercase hex.
    static func hex(_ text: String) -> String {
        digest(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
