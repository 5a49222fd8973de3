import Testing

/// How the values behind a running animation are posted.
enum QueuedPosting: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case oneByOne = "one request each"
    case batch = "one batch"

    var testDescription: String { rawValue }
}
