#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cryptographically random bytes read from `/dev/urandom`.
package enum SecureRandom {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func bytes(_ count: Int) throws(Failure) -> [UInt8] {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open /dev/urandom: \(errnoText())") }
        defer { close(fd) }
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = result.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Failure(description: "cannot read /dev/urandom: \(errnoText())") }
            filled += got
        }
        return result
    }

    /// `count` random bytes as lowercase hex (`2 × count` characters).
    package static func hex(_ count: Int) throws(Failure) -> String {
        try bytes(count).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}
