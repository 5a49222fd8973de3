
/// Why the viewer keys could not be loaded or changed.
public struct ViewerKeyError: Error, Equatable, CustomStringConvertible {
    public let description: String

    package init(description: String) {
        self.description = description
    }
}
