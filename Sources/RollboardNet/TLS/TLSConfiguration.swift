/// Where the server finds its certificate chain and private key, both PEM files.
public struct TLSConfiguration: Sendable, Equatable {
    /// The leaf certificate first, then any intermediates.
    public var certificateChainPath: String
    /// The private key matching the leaf certificate.
    public var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }
}
