import RollboardNet
import Testing

@testable import RollboardAPI
@testable import RollboardConfig
@testable import RollboardCore

// Expected digests were computed independently (Python's hmac module), or come from RFC 4231 and GitHub's documentation.
private let stripeBody = Array(#"{"id":"evt_1","type":"charge.succeeded","data":{"object":{"amount":1999}}}"#.utf8)
private let stripeSecret = Array("whsec_test_secret".utf8)
/// HMAC-SHA256 of "1700000000." + stripeBody under stripeSecret.
private let stripeV1At1700000000 = "96498e7003b227b4acf40259e5e54d3437a10b769d6dde3e0c617743f4b56351"
/// HMAC-SHA256 of "1700000600." + stripeBody under stripeSecret.
private let stripeV1At1700000600 = "9665270a7835191654b7926c840cff305174a5a789efcef27fd5ec259f8c58bf"

private let stripe = WebhookConfiguration.Verification(
    preset: .stripe, secretVariable: "S", header: "Stripe-Signature", tolerance: 300)
private let github = WebhookConfiguration.Verification(
    preset: .github, secretVariable: "S", header: "X-Hub-Signature-256", tolerance: 300)
private let generic = WebhookConfiguration.Verification(
    preset: .hmacSHA256, secretVariable: "S", header: "X-Signature", tolerance: 300)

private func check(
    _ verification: WebhookConfiguration.Verification, _ value: String?, secret: [UInt8], body: [UInt8],
    now: Double = 1_700_000_010
) -> WebhookSignatureRefusal? {
    let result = WebhookSignature.verify(
        verification, secret: secret, header: { $0 == verification.header ? value : nil }, body: body, now: now)
    if case .failure(let refusal) = result { return refusal }
    return nil
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// Webhook signatures: HMAC-SHA256 over the raw body as Stripe, GitHub and a generic header carry it.
@Suite("Webhook signatures")
struct WebhookSignatureTests {
    @Test("OpenSSL's HMAC-SHA256 gives RFC 4231's test vectors")
    func rfc4231() {
        #expect(
            hex(Digest.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            hex(Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Digest.hmacSHA256(key: [], message: []).count == 32)
    }

    @Test("a Stripe-Signature within the tolerance is accepted, whichever of several v1 signatures matches")
    func stripeAccepted() {
        #expect(check(stripe, "t=1700000000,v1=\(stripeV1At1700000000)", secret: stripeSecret, body: stripeBody) == nil)
        let rotated = "t=1700000000,v1=\(String(repeating: "ab", count: 32)),v1=\(stripeV1At1700000000),v0=00"
        #expect(check(stripe, rotated, secret: stripeSecret, body: stripeBody) == nil)
        #expect(
            check(
                stripe, "t=1700000000, v1=\(stripeV1At1700000000.uppercased())", secret: stripeSecret, body: stripeBody)
                == nil)
    }

    @Test("an old Stripe timestamp is refused even with its genuine signature")
    func stripeTooOld() {
        let refusal = check(
            stripe, "t=1700000000,v1=\(stripeV1At1700000000)", secret: stripeSecret, body: stripeBody,
            now: 1_700_000_301)
        #expect(refusal == .tooOld(ageSeconds: 301, toleranceSeconds: 300))
    }

    @Test("a replayed body with a new timestamp but the old signature is refused as a mismatch")
    func stripeReplay() {
        let refusal = check(
            stripe, "t=1700000600,v1=\(stripeV1At1700000000)", secret: stripeSecret, body: stripeBody,
            now: 1_700_000_600)
        #expect(refusal == .mismatch(header: "Stripe-Signature"))
        #expect(
            check(
                stripe, "t=1700000600,v1=\(stripeV1At1700000600)", secret: stripeSecret, body: stripeBody,
                now: 1_700_000_600)
                == nil, "while the provider's own signature for the new timestamp is accepted")
    }

    @Test(
        "a missing or malformed Stripe-Signature is refused naming why",
        arguments: [
            (nil as String?, WebhookSignatureRefusal.missingHeader("Stripe-Signature")),
            ("v1=\(stripeV1At1700000000)", .malformed(header: "Stripe-Signature", reason: "no t= timestamp")),
            ("t=1700000000", .malformed(header: "Stripe-Signature", reason: "no v1= signature")),
            (
                "t=soon,v1=\(stripeV1At1700000000)",
                .malformed(header: "Stripe-Signature", reason: "t= must be one Unix timestamp")
            ),
            ("t=1700000000,v1=xyz", .malformed(header: "Stripe-Signature", reason: "the signature must be hex digits")),
            ("t=1700000000,v1=\(stripeV1At1700000000.prefix(62))", .mismatch(header: "Stripe-Signature")),
        ])
    func stripeRefused(_ value: String?, expected: WebhookSignatureRefusal) {
        #expect(check(stripe, value, secret: stripeSecret, body: stripeBody) == expected)
    }

    @Test("a Stripe signature under another secret, or for a changed body, is a mismatch")
    func stripeMismatch() {
        let header = "t=1700000000,v1=\(stripeV1At1700000000)"
        #expect(
            check(stripe, header, secret: Array("whsec_other".utf8), body: stripeBody)
                == .mismatch(header: "Stripe-Signature"))
        #expect(
            check(stripe, header, secret: stripeSecret, body: stripeBody + [0x20])
                == .mismatch(header: "Stripe-Signature"))
    }

    @Test("GitHub's documented example is accepted; without sha256= or with another body it is refused")
    func githubExample() {
        let secret = Array("It's a Secret to Everybody".utf8)
        let body = Array("Hello, World!".utf8)
        let digest = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
        #expect(check(github, "sha256=\(digest)", secret: secret, body: body) == nil)
        #expect(
            check(github, digest, secret: secret, body: body)
                == .malformed(header: "X-Hub-Signature-256", reason: "must be sha256= and a hex digest"))
        #expect(
            check(github, "sha256=\(digest)", secret: secret, body: Array("Hello, World?".utf8))
                == .mismatch(header: "X-Hub-Signature-256"))
        #expect(check(github, nil, secret: secret, body: body) == .missingHeader("X-Hub-Signature-256"))
    }

    @Test("the generic preset takes the hex digest with or without sha256=")
    func genericPreset() {
        let secret = Array("gh_secret".utf8)
        let body = Array(#"{"ref":"refs/heads/main","commits":[{"id":"abc"}]}"#.utf8)
        let digest = "fef634f1ac9e4d5963ddfd34dfcd03009a2bc96696a8b8b31cb5448e07cdea34"
        #expect(check(generic, digest, secret: secret, body: body) == nil)
        #expect(check(generic, "sha256=" + digest, secret: secret, body: body) == nil)
        #expect(
            check(generic, String(digest.reversed()), secret: secret, body: body) == .mismatch(header: "X-Signature"))
    }

    @Test("the secret comes from the environment variable the webhook names, when verifying; unset or empty is none")
    func secretFromEnvironment() {
        #expect(
            WebhookSignature.secret(for: stripe, environment: { $0 == "S" ? "whsec_x" : nil }) == Array("whsec_x".utf8))
        #expect(WebhookSignature.secret(for: stripe, environment: { _ in nil }) == nil)
        #expect(WebhookSignature.secret(for: stripe, environment: { _ in "" }) == nil)
    }

    @Test("no refusal's message holds the secret or the expected digest")
    func noSecretInMessages() {
        let refusals: [WebhookSignatureRefusal?] = [
            check(
                stripe, "t=1700000600,v1=\(String(repeating: "00", count: 32))", secret: stripeSecret, body: stripeBody),
            check(stripe, "t=1,v1=\(stripeV1At1700000000)", secret: stripeSecret, body: stripeBody),
            check(stripe, "garbage", secret: stripeSecret, body: stripeBody),
        ]
        for refusal in refusals {
            let text = String(describing: refusal)
            #expect(!text.contains("whsec_test_secret") && !text.contains(stripeV1At1700000600))
        }
    }
}
