/// What an upstream answered: its final status (after redirects), its body decoded from any content coding, and its
/// media type.
public struct FetchResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    public var contentType: String?

    public init(status: Int, body: [UInt8], contentType: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }
}
