
/// The admin tokens in force: from `server.yaml`, from `ROLLBOARD_ADMIN_TOKEN`, or generated on first start.
///
/// An admin token manages viewer keys and reads every dashboard; it cannot write values, and a producer token cannot
/// act as an admin.
public struct AdminTokens: Sendable, Equatable {
    /// Every token the admin API accepts.
    public var tokens: [String]
    /// Where the generated token is stored, when the generated token is in use (to print it at start).
    public var generatedTokenPath: String?

    /// The environment variable whose value is accepted as an admin token.
    public static let environmentVariable = "ROLLBOARD_ADMIN_TOKEN"
    /// The file, inside the data directory, holding the generated token.
    public static let generatedTokenFileName = "admin-token"

    public init(tokens: [String], generatedTokenPath: String? = nil) {
        self.tokens = tokens
        self.generatedTokenPath = generatedTokenPath
    }

    /// Decides the tokens in force, as ``ProducerTokens/resolve(configured:environment:dataDirectory:)`` does for
    /// producers: configured and environment tokens count; only without them is one loaded from (or generated into)
    /// `<dataDirectory>/admin-token`, mode 0600.
    public static func resolve(
        configured: [String],
        environment: [String: String],
        dataDirectory: String
    ) throws(ProducerTokenError) -> AdminTokens {
        let (tokens, path) = try ProducerTokens.inForce(
            configured: configured, environment: environment[environmentVariable], dataDirectory: dataDirectory,
            fileName: generatedTokenFileName) { $0 }
        return AdminTokens(tokens: tokens, generatedTokenPath: path)
    }
}
