/// How a client connection secures itself.
public struct ClientTLSOptions: Sendable {
    /// PEM file of the certificates to trust; `nil` uses the system's trust store.
    public var trustedCertificatesPath: String?
    /// Skips certificate verification (for a server's own self-signed certificate in tests and scripts).
    public var verifiesCertificate: Bool

    public init(trustedCertificatesPath: String? = nil, verifiesCertificate: Bool = true) {
        self.trustedCertificatesPath = trustedCertificatesPath
        self.verifiesCertificate = verifiesCertificate
    }
}
