import Foundation
package import RollboardCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The producer tokens in force: from the file, from `ROLLBOARD_PRODUCER_TOKEN`, or generated on first start.
public struct ProducerTokens: Sendable, Equatable {
    /// Every token the API accepts.
    public var tokens: [ProducerToken]
    /// Where the generated token is stored, when the generated token is in use (to print it at start).
    public var generatedTokenPath: String?

    /// The environment variable whose value is accepted as an unrestricted token.
    public static let environmentVariable = "ROLLBOARD_PRODUCER_TOKEN"
    /// The file, inside the data directory, holding the generated token.
    public static let generatedTokenFileName = "producer-token"

    /// Decides the tokens in force.
    ///
    /// The configured tokens always count. A non-empty `ROLLBOARD_PRODUCER_TOKEN` adds an unrestricted token and
    /// replaces any generated one. Only when neither gives a token is one loaded from (or, the first time, generated
    /// into) `<dataDirectory>/producer-token`, mode 0600.
    public static func resolve(
        configured: [ProducerToken],
        environment: [String: String],
        dataDirectory: String
    ) throws(ProducerTokenError) -> ProducerTokens {
        let (tokens, path) = try inForce(
            configured: configured, environment: environment[environmentVariable], dataDirectory: dataDirectory,
            fileName: generatedTokenFileName) { ProducerToken(token: $0) }
        return ProducerTokens(tokens: tokens, generatedTokenPath: path)
    }

    /// The tokens in force, producers' or admins': `configured`, and the environment's token when it is set and not
    /// empty (made into a token by `make`); only when that gives none, the one loaded from (or generated into)
    /// `<dataDirectory>/<fileName>`, whose path comes back with it.
    static func inForce<Token>(
        configured: [Token], environment: String?, dataDirectory: String, fileName: String,
        make: (String) -> Token
    ) throws(ProducerTokenError) -> (tokens: [Token], generatedTokenPath: String?) {
        var tokens = configured
        if let token = environment, !token.isEmpty { tokens.append(make(token)) }
        if !tokens.isEmpty { return (tokens, nil) }
        let path = dataDirectory + "/" + fileName
        return ([make(try loadOrGenerate(path: path))], path)
    }

    /// Reads the token stored at `path`, or creates the file (mode 0600, parent folders as needed) with 32 random
    /// bytes in hex. A file readable by others is refused.
    public static func loadOrGenerate(path: String) throws(ProducerTokenError) -> String {
        if let existing = try readToken(path: path) { return existing }
        if let problem = createDirectories(parentOf: path) {
            throw ProducerTokenError(description: problem)
        }
        let token: String
        do {
            token = try SecureRandom.hex(32)
        } catch {
            throw ProducerTokenError(description: "\(path): \(error)")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 && errno == EEXIST, let raced = try readToken(path: path) { return raced }
        guard fd >= 0 else { throw ProducerTokenError(description: "\(path): cannot create: \(errnoText())") }
        defer { close(fd) }
        let bytes = Array((token + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else {
            let reason = errnoText()
            unlink(path)
            throw ProducerTokenError(description: "\(path): cannot write: \(reason)")
        }
        return token
    }

    private static func readToken(path: String) throws(ProducerTokenError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT { return nil }
        guard fd >= 0 else { throw ProducerTokenError(description: "\(path): cannot open: \(errnoText())") }
        defer { close(fd) }
        let mode: Int
        do {
            mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o777
        } catch {
            throw ProducerTokenError(description: "\(path): \(error)")
        }
        guard mode & 0o077 == 0 else {
            throw ProducerTokenError(
                description: "\(path): readable by other users (mode \(String(mode & 0o777, radix: 8))); "
                    + "run chmod 600 on it"
            )
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw ProducerTokenError(description: "\(path): cannot read: \(errnoText())") }
        let token = String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespaceAndNewlines()
        guard !token.isEmpty else {
            throw ProducerTokenError(description: "\(path): is empty; delete it to generate a new token")
        }
        return token
    }
}
