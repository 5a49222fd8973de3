/// An HTTP protocol version.
public struct HTTPVersion: Sendable, Equatable, Hashable {
    public var major: Int
    public var minor: Int

    public static let http10 = HTTPVersion(major: 1, minor: 0)
    public static let http11 = HTTPVersion(major: 1, minor: 1)
}
