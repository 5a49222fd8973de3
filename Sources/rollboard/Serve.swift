import ArgumentParser
import Dispatch
import Foundation
import Logging
import RollboardAPI
import RollboardAccess
import RollboardConfig
import RollboardCore
import RollboardHub
import RollboardMetrics
import RollboardNet
import RollboardRedis
import RollboardServer
import RollboardSources
import RollboardStore
import Synchronization

/// `rollboard serve`: runs the dashboards in `config/` on one TLS port.
struct Serve: ParsableCommand {
    /// The file, inside the data directory, that holds the process id while the server runs.
    static let pidFileName = "rollboard.pid"

    static let configuration = CommandConfiguration(
        abstract: "Serve the dashboards, the producer API and the page over HTTPS and WebSockets."
    )

    @Option(help: "The configuration folder (server.yaml and dashboards/*.yaml).")
    var config = "config"

    @Option(help: """
        The data folder for the store, the generated certificate and token (overrides server.yaml; default \
        \(ServerSettings.Defaults.dataDirectory)).
        """)
    var dataDir: String?

    @Option(help: """
        The address to listen on (overrides server.yaml; default \"\(ServerSettings.Defaults.host)\", every IPv4 and \
        IPv6 address).
        """)
    var host: String?

    @Option(help: "The port to listen on (overrides server.yaml; default \(ServerSettings.Defaults.port)).")
    var port: Int?

    @Option(help: "The folder of the page's static files.")
    var publicDir = "public"

    @Option(help: """
        Seconds within which a screen running an older page than this node serves (after an upgrade) reloads, at a \
        random moment (default \(Int(ServerSettings.Defaults.pageReloadSpread)); 0 reloads at once).
        """)
    var pageReloadSpread: Double?

    @Flag(help: "Speak plain HTTP, for use behind a TLS-terminating proxy.")
    var noTLS = false

    @Flag(help: "Feed the demo dashboard with synthetic values.")
    var demo = false

    @Option(help: "Log lines as text (swift-log's default), logfmt or json, on standard error.")
    var logFormat: LogFormat = .text

    @Option(help: ArgumentHelp(
        "Share changes with other nodes through this Redis (overrides server.yaml's redis.url).",
        valueName: "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or rediss://…"))
    var redis: String?

    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, logfmt, json
    }

    func run() throws {
        // First, before any thread allocates: the allocator's settings hold for every arena.
        let trimmer = MemoryTrimmer()
        switch logFormat {
        case .text: break
        case .logfmt: LoggingSystem.bootstrap { StructuredLogHandler(label: $0, format: .logfmt) }
        case .json: LoggingSystem.bootstrap { StructuredLogHandler(label: $0, format: .json) }
        }
        var logger = Logger(label: "rollboard")
        logger.logLevel = .info
        let loaded: RollboardConfiguration
        do {
            loaded = try RollboardConfiguration.load(directory: config)
        } catch {
            // A refused configuration is no misuse of the command line: the problems alone, without a usage line.
            throw RuntimeError("configuration refused:\n" + error.problems.joined(separator: "\n"))
        }
        var settings = loaded.server
        if let dataDir { settings.dataDirectory = dataDir }
        if let host { settings.host = host }
        if let port { settings.port = port }
        if let redis {
            do throws(RedisURLError) {
                _ = try RedisURL(redis)
            } catch {
                throw ValidationError("--redis: \(error.message)")
            }
            var shared = settings.redis ?? RedisSettings(url: redis)
            shared.url = redis
            settings.redis = shared
        }
        let configuration = loaded.replacingServer(settings)
        if let pageReloadSpread, !(0...3_600).contains(pageReloadSpread) {
            throw ValidationError("--page-reload-spread: seconds from 0 to 3600, got \(pageReloadSpread)")
        }
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)

        let tls = noTLS ? nil : try tlsConfiguration(settings)
        let tokens = try ProducerTokens.resolve(
            configured: settings.producerTokens,
            environment: ProcessInfo.processInfo.environment,
            dataDirectory: settings.dataDirectory)
        let adminTokens = try AdminTokens.resolve(
            configured: settings.adminTokens,
            environment: ProcessInfo.processInfo.environment,
            dataDirectory: settings.dataDirectory)
        if settings.redis != nil {
            // Every node of a cluster must accept the same tokens: one generated per node would work on one node in n.
            var generated: [String] = []
            if tokens.generatedTokenPath != nil { generated.append("a producer token (producerTokens or \(ProducerTokens.environmentVariable))") }
            if adminTokens.generatedTokenPath != nil { generated.append("an admin token (adminTokens or \(AdminTokens.environmentVariable))") }
            if !generated.isEmpty {
                throw RuntimeError(
                    "with Redis every node must accept the same tokens: give "
                        + generated.joined(separator: " and ")
                        + " in server.yaml or the environment, the same on every node, instead of one generated per node"
                        + " (see docs/cluster.md)")
            }
        }
        if let path = tokens.generatedTokenPath, let token = tokens.tokens.last?.token {
            announce("Producer token (stored in \(path), mode 0600): \(token)")
        }
        if let path = adminTokens.generatedTokenPath {
            announce("Admin token (viewer keys): stored in \(path), mode 0600")
        }
        var options = RollboardNode.Options(
            configuration: configuration, fileSettings: loaded.server, configDirectory: config,
            publicDirectory: publicDir, tls: tls, producerTokens: tokens.tokens, adminTokens: adminTokens.tokens)
        if let pageReloadSpread { options.pageReloadSpread = pageReloadSpread }
        let node = try RollboardNode(options, logger: logger)
        try node.start()
        let server = node.server
        let reloader = node.reloader

        if demo, configuration.dashboard("demo") == nil {
            throw RuntimeError("--demo needs a dashboard with id \"demo\" in \(config)/dashboards")
        }
        // The story dashboard (gauges, a clock), when shipped, is fed too.
        let feeders = (demo ? ["demo", "story"] : []).compactMap(configuration.dashboard).map {
            DemoFeeder(
                dashboard: $0, store: node.changeLog, leaderboardLimit: settings.limits.maxLeaderboardEntries,
                logger: logger)
        }
        feeders.forEach { $0.start() }

        let scheme = tls == nil ? "http" : "https"
        let shownHost = settings.host == ServerSettings.Defaults.host || settings.host == "0.0.0.0" ? "localhost" : settings.host
        let urlHost = shownHost.contains(":") ? "[\(shownHost)]" : shownHost
        announce("Rollboard is serving \(configuration.dashboards.count) dashboard(s) on \(scheme)://\(urlHost):\(server.localPort)/")
        for dashboard in configuration.dashboards {
            let access = configuration.access(of: dashboard) == .everyone ? "public" : "needs a viewer key"
            announce("  \(scheme)://\(urlHost):\(server.localPort)/d/\(dashboard.id)  \(dashboard.title) (\(access))")
        }
        for playlist in configuration.playlists {
            let entries = playlist.entries.map(\.dashboard).joined(separator: ", ")
            announce("  \(scheme)://\(urlHost):\(server.localPort)/p/\(playlist.id)  \(playlist.title) (playlist: \(entries))")
        }
        let pidFile = settings.dataDirectory + "/" + Self.pidFileName
        if (try? "\(getpid())\n".write(toFile: pidFile, atomically: true, encoding: .utf8)) != nil {
            announce("Process \(getpid()) (in \(pidFile)): kill -HUP $(cat \(pidFile)) reloads config/ and the certificate")
        }

        let stopFeeder = { feeders.forEach { $0.stop() } }
        // Signals are handled on a queue of their own while the main thread serves the main queue (`dispatchMain`):
        // a signal stops the node, whose completion ends the process with `exit`; the deadline ends it if the stop
        // does not complete in time.
        let signalQueue = DispatchQueue(label: "rollboard.signals")
        let shutdownTimeout = settings.shutdownTimeout
        let shutdownLogger = logger
        let stopping = Atomic<Bool>(false)
        let signals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler {
                guard !stopping.exchange(true, ordering: .relaxed) else {
                    logger.warning("second signal; exiting at once")
                    _exit(0)
                }
                logger.info("shutting down", metadata: ["deadline": "\(shutdownTimeout) s"])
                signalQueue.asyncAfter(deadline: .now() + shutdownTimeout) {
                    shutdownLogger.warning("shutdown deadline reached; exiting with work unfinished (acknowledged values are on disk)")
                    _exit(0)
                }
                stopFeeder()
                node.stop {
                    shutdownLogger.info("stopped")
                    unlink(pidFile)
                    Foundation.exit(0)
                }
            }
            source.activate()
            return source
        }
        signal(SIGHUP, SIG_IGN)
        let reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: signalQueue)
        reload.setEventHandler {
            do {
                try server.reloadTLS()
            } catch {
                logger.error("TLS reload refused; keeping the certificate in use", metadata: ["error": "\(error)"])
            }
            _ = reloader?.reload()
        }
        reload.activate()
        // `dispatchMain()` ends the main thread (pthread_exit) and serves the main queue from Dispatch's threads: what
        // this frame holds for the life of the process is kept where every thread (and LeakSanitizer) still sees it.
        ServeLifetime.keep([signals, reload, trimmer, signalQueue, node, reloader as Any, feeders])
        dispatchMain()
    }

    /// The configured certificate files, or a self-signed pair generated into the data folder on first start.
    private func tlsConfiguration(_ settings: ServerSettings) throws -> TLSConfiguration {
        if let files = settings.tls {
            return TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.privateKey)
        }
        let files = settings.generatedCertificatePaths
        if !FileManager.default.fileExists(atPath: files.certificate)
            || !FileManager.default.fileExists(atPath: files.privateKey)
        {
            let folder = (files.certificate as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try SelfSignedCertificate.generate(certificatePath: files.certificate, privateKeyPath: files.privateKey)
            announce("Generated a self-signed certificate for localhost, 127.0.0.1 and ::1: \(files.certificate)")
        }
        return TLSConfiguration(certificateChainPath: files.certificate, privateKeyPath: files.privateKey)
    }
}

/// Writes one line to standard output at once (stdout is block-buffered when redirected, and the server never
/// returns to flush it).
private func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What `serve` keeps for the life of the process once the main thread has handed itself to Dispatch.
enum ServeLifetime {
    // Sendable: written once on the main thread before `dispatchMain()`, never read.
    nonisolated(unsafe) private static var kept: [Any] = []

    static func keep(_ objects: [Any]) {
        kept = objects
    }
}
