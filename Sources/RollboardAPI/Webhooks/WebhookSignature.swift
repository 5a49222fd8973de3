package import RollboardConfig
package import RollboardCore
import RollboardNet

/// Why a delivery's signature is refused (a 401, once the route exists). Never holds the secret, nor the digest
/// that was expected.
package enum WebhookSignatureRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The signature header is absent.
    case missingHeader(String)
    /// The header is not in the preset's format.
    case malformed(header: String, reason: String)
    /// Stripe: the signed timestamp is older than the tolerance allows (or too far ahead).
    case tooOld(ageSeconds: Double, toleranceSeconds: Double)
    /// No signature in the header matches the body.
    case mismatch(header: String)

    package var description: String {
        switch self {
        case .missingHeader(let header): "no \(header) header"
        case .malformed(let header, let reason): "\(header): \(reason)"
        case .tooOld(let age, let tolerance):
            "the signed timestamp is \(formatNumber(age.rounded())) s from now, over the tolerance of \(formatNumber(tolerance)) s"
        case .mismatch(let header): "\(header) does not match the body"
        }
    }
}

/// HMAC-SHA256 signatures of webhook deliveries, as Stripe, GitHub and a generic header carry them; pure (the secret
/// and the time are passed in), compared in constant time.
package enum WebhookSignature {
    /// Checks `body` against the signature in its header (`header(name)` returns a request header's value, names
    /// case-insensitive as the caller sees fit), with the secret's bytes and the current Unix time `now`.
    package static func verify(
        _ verification: WebhookConfiguration.Verification, secret: [UInt8], header: (String) -> String?,
        body: [UInt8], now: Double
    ) -> Result<Void, WebhookSignatureRefusal> {
        let name = verification.header
        guard let value = header(name) else { return .failure(.missingHeader(name)) }
        switch verification.preset {
        case .stripe:
            return stripe(value, header: name, secret: secret, body: body, now: now, tolerance: verification.tolerance)
        case .github:
            guard value.hasPrefix("sha256=") else {
                return .failure(.malformed(header: name, reason: "must be sha256= and a hex digest"))
            }
            return compare([String(value.dropFirst(7))], header: name, Digest.hmacSHA256(key: secret, message: body))
        case .hmacSHA256:
            let hex = value.hasPrefix("sha256=") ? String(value.dropFirst(7)) : value
            return compare([hex], header: name, Digest.hmacSHA256(key: secret, message: body))
        }
    }

    /// The secret's bytes, read from the environment variable the webhook names (`secret: ${NAME}`) when a delivery
    /// is verified, never at load time; `nil` when it is unset or empty (every delivery is then refused; the
    /// variable's name may be logged, its value never).
    package static func secret(
        for verification: WebhookConfiguration.Verification, environment: (String) -> String?
    ) -> [UInt8]? {
        guard let value = environment(verification.secretVariable), !value.isEmpty else { return nil }
        return Array(value.utf8)
    }

    /// `Stripe-Signature: t=TIMESTAMP,v1=HEX[,v1=HEX…]` (other schemes such as `v0` ignored): HMAC-SHA256 of
    /// `TIMESTAMP.BODY`; the signature first, then the timestamp's age, as Stripe's libraries check them.
    private static func stripe(
        _ value: String, header: String, secret: [UInt8], body: [UInt8], now: Double, tolerance: Double
    ) -> Result<Void, WebhookSignatureRefusal> {
        var timestamp: Int?
        var signatures: [String] = []
        for item in value.split(separator: ",") {
            let pair = item.trimmingSpaces.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t":
                guard timestamp == nil, pair[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    let seconds = Int(pair[1])
                else { return .failure(.malformed(header: header, reason: "t= must be one Unix timestamp")) }
                timestamp = seconds
            case "v1":
                signatures.append(String(pair[1]))
            default:
                continue
            }
        }
        guard let timestamp else { return .failure(.malformed(header: header, reason: "no t= timestamp")) }
        guard !signatures.isEmpty else { return .failure(.malformed(header: header, reason: "no v1= signature")) }
        let signed = Array("\(timestamp).".utf8) + body
        let result = compare(signatures, header: header, Digest.hmacSHA256(key: secret, message: signed))
        guard case .success = result else { return result }
        let age = now - Double(timestamp)
        guard abs(age) <= tolerance else { return .failure(.tooOld(ageSeconds: age, toleranceSeconds: tolerance)) }
        return .success(())
    }

    /// Success when one of the hex `signatures` is `expected`; each compared in constant time.
    private static func compare(_ signatures: [String], header: String, _ expected: [UInt8]) -> Result<
        Void, WebhookSignatureRefusal
    > {
        var matched = false
        for hex in signatures {
            guard let given = decodeHex(hex) else {
                return .failure(.malformed(header: header, reason: "the signature must be hex digits"))
            }
            if ConstantTime.equals(given, expected) { matched = true }
        }
        return matched ? .success(()) : .failure(.mismatch(header: header))
    }

    /// Bytes of an even number of hex digits (either case); `nil` otherwise.
    static func decodeHex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x61 + 10
            case 0x41...0x46: digit - 0x41 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
