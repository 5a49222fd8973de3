import ArgumentParser
import Foundation
import RollboardNet

/// `rollboard push ID VALUE`: posts one value, for scripts and cron jobs.
struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Post a new value for a metric to a running server.",
        discussion: """
            The token comes from --token, else ROLLBOARD_PRODUCER_TOKEN, else the token file the server \
            generated in --data-dir. Prints the server's JSON reply; exits 1 when the value was refused.
            """
    )

    @Argument(help: "The metric id, e.g. revenue.")
    var id: String

    @Argument(help: "The new value, e.g. 1234.5 (negative values after --, e.g. -- -3).")
    var value: String

    @Option(help: "The server's base URL.")
    var url = "https://localhost:8443"

    @Option(help: "The producer token.")
    var token: String?

    @Option(help: "The data folder holding a generated token and certificate.")
    var dataDir = ".data"

    @Option(help: "Seconds the animation should take.")
    var interval: Double?

    @Flag(help: "Jump to the value without animating.")
    var noAnimation = false

    @Option(help: "A PEM certificate to trust (default: the server's generated certificate in --data-dir when present).")
    var caFile: String?

    @Flag(help: "Do not verify the server's certificate.")
    var insecure = false

    func validate() throws {
        guard Double(value).map(\.isFinite) == true else {
            throw ValidationError("VALUE must be a finite number, not \(value)")
        }
        if let interval, !(interval.isFinite && interval > 0) {
            throw ValidationError("--interval must be a positive number of seconds")
        }
    }

    func run() throws {
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, let host = parsed.host,
            ["http", "https"].contains(scheme)
        else {
            throw ValidationError("--url must look like https://HOST:PORT")
        }
        let token = try self.token ?? ProcessInfo.processInfo.environment["ROLLBOARD_PRODUCER_TOKEN"] ?? readTokenFile()
        var tls: ClientTLSOptions?
        if scheme == "https" {
            let generated = dataDir + "/tls/certificate.pem"
            let trusted = caFile ?? (FileManager.default.fileExists(atPath: generated) ? generated : nil)
            tls = ClientTLSOptions(trustedCertificatesPath: trusted, verifiesCertificate: !insecure)
        }
        var body = "{\"value\":\(value)"
        if let interval { body += ",\"interval\":\(interval)" }
        if noAnimation { body += ",\"animated\":false" }
        body += "}"
        let escapedID = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        let request = HTTPRequest(
            method: "POST",
            target: "/api/v1/metrics/\(escapedID)",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: Array(body.utf8))
        let client = HTTPClient(host: host, port: parsed.port ?? (scheme == "https" ? 443 : 80), tls: tls)
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch {
            throw RuntimeError("cannot reach \(url): \(error)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard (200..<300).contains(response.status.code) else {
            FileHandle.standardError.write(Data("\(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        print(text)
    }

    private func readTokenFile() throws -> String {
        let path = dataDir + "/producer-token"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("no token: pass --token, set ROLLBOARD_PRODUCER_TOKEN, or point --data-dir at the server's data folder")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
