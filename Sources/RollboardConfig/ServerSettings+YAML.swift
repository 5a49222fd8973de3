package import RollboardCore
import RollboardNet
import RollboardRedis
import Yams

extension ServerSettings {
    static let topLevelKeys = [
        "host", "port", "tls", "dataDirectory", "limits", "allowedOrigins", "producerTokens", "adminTokens",
        "dashboardAccess", "staleAfter",
        "historyLength", "seriesRetention", "journalCompactionBytes", "idempotencyMemoryBytes", "shutdownTimeout", "redis",
    ]
    static let limitKeys = [
        "maxBodyBytes", "maxConnections", "maxConnectionsPerAddress", "defaultFPS", "maxFPS", "backlog",
        "slowClientTimeout",
        "outboundHighWatermark", "outboundLowWatermark", "producerRequestsPerSecond", "maxBatchUpdates",
        "maxLeaderboardEntries",
        "maxClientMessageBytes", "clientMessagesPerSecond", "commitTimeout",
    ]

    /// Reads settings from the root node of `server.yaml`; problems go to `problems`.
    init(node: Node, file: String, problems: ConfigurationProblems) {
        self.init()
        guard let reader = YAMLMappingReader(node, context: file, field: "", problems: problems) else { return }
        reader.rejectUnknownKeys(allowed: Self.topLevelKeys)
        if let host = reader.string("host") {
            if host.isEmpty { reader.report("host", "must not be empty") } else { self.host = host }
        }
        port = reader.int("port", in: 0...65_535) ?? port
        if let tls = reader.mapping("tls") {
            tls.rejectUnknownKeys(allowed: ["certificate", "privateKey"])
            tls.require("certificate")
            tls.require("privateKey")
            if let certificate = tls.string("certificate"), let privateKey = tls.string("privateKey") {
                self.tls = TLSFiles(certificate: certificate, privateKey: privateKey)
            }
        }
        if let directory = reader.string("dataDirectory") {
            if directory.isEmpty {
                reader.report("dataDirectory", "must not be empty")
            } else {
                dataDirectory = directory
            }
        }
        if let limits = reader.mapping("limits") {
            self.limits = Limits(reader: limits)
        }
        if let origins = reader.strings("allowedOrigins") {
            for (index, origin) in origins.enumerated()
            where !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) || origin.hasSuffix("/") {
                reader.report(
                    "allowedOrigins[\(index)]",
                    "must be an origin like https://example.com:8443 (scheme, host, optional port, no path), "
                        + "got \"\(origin)\""
                )
            }
            allowedOrigins = origins
        }
        if let tokens = reader.sequence("producerTokens") {
            producerTokens = tokens.enumerated().compactMap { index, node in
                ProducerToken(node: node, field: "producerTokens[\(index)]", reader: reader)
            }
        }
        if let tokens = reader.strings("adminTokens") {
            for (index, token) in tokens.enumerated() where !ProducerToken.isAcceptable(token) {
                reader.report("adminTokens[\(index)]", ProducerToken.rule)
            }
            adminTokens = tokens.filter(ProducerToken.isAcceptable)
        }
        dashboardAccess = reader.access("dashboardAccess") ?? dashboardAccess
        staleAfter = reader.double("staleAfter", in: 1...31_536_000)
        historyLength = reader.int("historyLength", in: 1...10_000) ?? historyLength
        seriesRetention = reader.double("seriesRetention", in: 60...2_592_000) ?? seriesRetention
        journalCompactionBytes =
            reader.int("journalCompactionBytes", in: 4_096...1_073_741_824) ?? journalCompactionBytes
        idempotencyMemoryBytes =
            reader.int("idempotencyMemoryBytes", in: 65_536...17_179_869_184) ?? idempotencyMemoryBytes
        shutdownTimeout = reader.double("shutdownTimeout", in: 1...600) ?? shutdownTimeout
        if let redis = reader.mapping("redis") {
            self.redis = RedisSettings(reader: redis)
        }
    }
}

extension ServerSettings.Limits {
    init(reader: YAMLMappingReader) {
        self.init()
        reader.rejectUnknownKeys(allowed: ServerSettings.limitKeys)
        maxBodyBytes = reader.int("maxBodyBytes", in: 1_024...16_777_216) ?? maxBodyBytes
        maxConnections = reader.int("maxConnections", in: 1...1_000_000) ?? maxConnections
        maxConnectionsPerAddress =
            reader.int("maxConnectionsPerAddress", in: 0...1_000_000) ?? maxConnectionsPerAddress
        defaultFPS = reader.int("defaultFPS", in: Self.fpsRange) ?? defaultFPS
        maxFPS = reader.int("maxFPS", in: Self.fpsRange) ?? maxFPS
        if defaultFPS > maxFPS {
            reader.report("defaultFPS", "must not be above maxFPS (\(maxFPS)), got \(defaultFPS)")
        }
        backlog = reader.int("backlog", in: 1...10_000) ?? backlog
        slowClientTimeout = reader.double("slowClientTimeout", in: 1...3_600) ?? slowClientTimeout
        outboundHighWatermark = reader.int("outboundHighWatermark", in: 1_024...268_435_456) ?? outboundHighWatermark
        outboundLowWatermark = reader.int("outboundLowWatermark", in: 0...268_435_456) ?? outboundLowWatermark
        if outboundLowWatermark >= outboundHighWatermark {
            reader.report(
                "outboundLowWatermark",
                "must be below outboundHighWatermark (\(outboundHighWatermark)), got \(outboundLowWatermark)"
            )
        }
        producerRequestsPerSecond =
            reader.double("producerRequestsPerSecond", in: 0...1_000_000) ?? producerRequestsPerSecond
        maxBatchUpdates = reader.int("maxBatchUpdates", in: 1...100_000) ?? maxBatchUpdates
        maxLeaderboardEntries = reader.int("maxLeaderboardEntries", in: 1...100_000) ?? maxLeaderboardEntries
        maxClientMessageBytes = reader.int("maxClientMessageBytes", in: 256...1_048_576) ?? maxClientMessageBytes
        clientMessagesPerSecond = reader.double("clientMessagesPerSecond", in: 1...1_000) ?? clientMessagesPerSecond
        commitTimeout = reader.double("commitTimeout", in: 0.1...600) ?? commitTimeout
    }
}

extension ProducerToken {
    /// Shortest token accepted in the file.
    static let minimumLength = 16
    static let rule = "must be at least \(minimumLength) printable ASCII characters without spaces"

    /// Whether `token` may be configured: long enough, printable ASCII, no spaces.
    static func isAcceptable(_ token: String) -> Bool {
        token.count >= minimumLength && token.unicodeScalars.allSatisfy { (0x21...0x7e).contains($0.value) }
    }

    init?(node: Node, field: String, reader parent: YAMLMappingReader) {
        guard let reader = YAMLMappingReader(node, context: parent.context, field: field, problems: parent.problems)
        else { return nil }
        reader.rejectUnknownKeys(allowed: ["token", "metrics"])
        guard reader.require("token"), let token = reader.string("token") else { return nil }
        guard Self.isAcceptable(token) else {
            reader.report("token", Self.rule)
            return nil
        }
        let metrics = reader.strings("metrics")
        if let metrics, metrics.isEmpty {
            reader.report("metrics", "must not be empty (leave it out to allow every id)")
        }
        self.init(token: token, metrics: metrics.map(Set.init))
    }
}

extension YAMLMappingReader {
    /// `public` or `key` at `key`; anything else is reported.
    func access(_ key: String) -> DashboardAccess? {
        guard let text = string(key) else { return nil }
        guard let access = DashboardAccess(rawValue: text) else {
            report(key, "must be public or key, got \"\(text)\"")
            return nil
        }
        return access
    }
}
