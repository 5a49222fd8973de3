/// What kind of failure a ``CodedError`` of `Domain` is: its codes are static members declared in an
/// `extension ErrorCode where Domain == …`, compared by their descriptions.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    init(description: String) {
        self.description = description
    }
}
