import RollboardNet

/// SHA-256 digests, for secrets the server keeps only as digests (viewer keys).
package enum SHA256 {
    /// The digest of `text`'s UTF-8 bytes, as lowercase hex.
    package static func hex(_ text: String) -> String {
        Digest.sha256(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
