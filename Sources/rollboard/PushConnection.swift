import ArgumentParser
import Foundation
import RollboardAccess
import RollboardConfig
import RollboardCore
import RollboardHub
import RollboardNet
import RollboardClient
import RollboardRedisLog
import RollboardServer
import RollboardStore

/// Where `rollboard push` posts and how: the server's URL, the producer token, the certificate to trust.
struct PushConnection: ParsableArguments {
    @Option(help: "The server's base URL.")
    var url = "https://localhost:\(ServerSettings.Defaults.port)"

    @Option(help: "The producer token.")
    var token: String?

    @Option(help: "The server's data folder, holding the token and the certificate it generated.")
    var dataDir = ServerSettings.Defaults.dataDirectory

    @Option(help: "A PEM certificate to trust (default: the server's generated certificate in --data-dir when present).")
    var caFile: String?

    @Flag(help: "Do not verify the server's certificate.")
    var insecure = false

    func validate() throws {
        _ = try endpoint()
    }

    /// Posts `request` and returns the server's answer, whatever its status. A `ValidationError` without a token, a
    /// `RuntimeError` when the server cannot be reached (with a hint when its certificate was not trusted).
    func send(_ request: PushRequest) throws -> HTTPResponse {
        let (scheme, host, port) = try endpoint()
        let token = try self.token ?? ProcessInfo.processInfo.environment["ROLLBOARD_PRODUCER_TOKEN"] ?? readTokenFile()
        var tls: ClientTLSOptions?
        if scheme == "https" {
            tls = ClientTLSOptions(trustedCertificatesPath: trustedCertificates, verifiesCertificate: !insecure)
        }
        let client = HTTPClient(host: host, port: port, tls: tls)
        var headers: HTTPHeaders = ["Content-Type": "application/json", "Authorization": "Bearer \(token)"]
        if let key = request.idempotencyKey { headers.add(name: "Idempotency-Key", value: key) }
        do {
            return try client.send(
                HTTPRequest(method: "POST", target: request.target, headers: headers, body: request.body))
        } catch let error as ClientError where error.isCertificateRejected {
            throw RuntimeError("cannot reach \(url): \(error)\n\(certificateHint)")
        } catch {
            throw RuntimeError("cannot reach \(url): \(error)")
        }
    }

    /// The scheme, host and port of `--url`.
    private func endpoint() throws -> (scheme: String, host: String, port: Int) {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, let host = parsed.host,
            ["http", "https"].contains(scheme)
        else {
            throw ValidationError("--url must look like https://HOST:PORT")
        }
        return (scheme, host, parsed.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The certificate the server generated in `--data-dir`.
    private var generatedCertificate: String { dataDir + "/tls/certificate.pem" }

    /// The PEM file to trust: `--ca-file`, else the generated certificate when present, else `nil` (the system's).
    private var trustedCertificates: String? {
        caFile ?? (FileManager.default.fileExists(atPath: generatedCertificate) ? generatedCertificate : nil)
    }

    /// One line on what to do when the server's certificate is not trusted, naming what it was checked against.
    private var certificateHint: String {
        let checkedAgainst =
            if let caFile { "--ca-file \(caFile)" }
            else if let trusted = trustedCertificates { trusted }
            else { "the system's certificates (there is no \(generatedCertificate))" }
        return "hint: push checked it against \(checkedAgainst); point --data-dir at the server's data folder, the one "
            + "whose tls/certificate.pem the server generated, or pass its certificate with --ca-file FILE; "
            + "--insecure skips the check (last resort)"
    }

    private func readTokenFile() throws -> String {
        let path = dataDir + "/producer-token"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("no token: pass --token, set ROLLBOARD_PRODUCER_TOKEN, or point --data-dir at the server's data folder")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
