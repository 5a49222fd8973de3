package import RollboardCore
import Yams

extension WebhookConfiguration {
    static let keys = ["id", "verify", "event", "maxBodyBytes", "rules"]
    static let verifyKeys = ["preset", "secret", "header", "tolerance"]
    static let ruleKeys = ["when", "increment", "set", "leaderboard", "text", "amount", "scale", "name", "value"]

    /// Reads a webhook from the root node of its file; each metric, leaderboard and text it changes must be shown by
    /// a tile of `catalog`. `nil` when it has problems (reported).
    init?(node: Node, file: String, catalog: MetricCatalog, problems: ConfigurationProblems) {
        let before = problems.lines.count
        guard let reader = YAMLMappingReader(node, context: file, field: "", problems: problems) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.keys)
        let id = reader.id(orNameOf: file)
        var verification: Verification?
        if reader.require("verify"), let verify = reader.mapping("verify") {
            verification = Self.verification(verify)
        }
        let event = Self.eventID(reader)
        let maxBodyBytes = reader.int("maxBodyBytes", in: 1...(64 << 20)) ?? Defaults.maxBodyBytes
        let rules = Self.rules(reader, catalog: catalog)
        guard problems.lines.count == before, let verification else { return nil }
        self.init(
            id: id, verify: verification, event: event, maxBodyBytes: maxBodyBytes, rules: rules, file: file)
    }

    static let pointerRule = "must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"

    /// `event: /pointer`, or `event: {header: NAME}`.
    private static func eventID(_ reader: YAMLMappingReader) -> EventID? {
        if case .mapping? = reader.node("event"), let event = reader.mapping("event") {
            event.rejectUnknownKeys(allowed: ["header"])
            guard event.require("header"), let name = event.string("header") else { return nil }
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                event.report("header", "must be a header name, got \"\(name.prefix(100))\"")
                return nil
            }
            return .header(name)
        }
        guard let pointer = reader.string("event") else { return nil }
        guard JSONPointer.referenceTokens(pointer) != nil else {
            reader.report("event", pointerRule + ", or {header: NAME}")
            return nil
        }
        return .pointer(pointer)
    }

    private static func verification(_ verify: YAMLMappingReader) -> Verification? {
        verify.rejectUnknownKeys(allowed: verifyKeys)
        var preset: Preset?
        if verify.require("preset"), let name = verify.string("preset") {
            preset = Preset(rawValue: name)
            if preset == nil {
                verify.report(
                    "preset",
                    "must be one of \(Preset.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name.prefix(100))\""
                )
            }
        }
        var variable: String?
        if verify.require("secret"), let secret = verify.string("secret") {
            variable = environmentVariable(in: secret)
            if variable == nil {
                // The value may be the secret itself: never repeat it.
                verify.report(
                    "secret",
                    "must name an environment variable as ${NAME}; the secret itself does not belong in a file")
            }
        }
        var header: String?
        switch preset {
        case .stripe: header = "Stripe-Signature"
        case .github: header = "X-Hub-Signature-256"
        case .hmacSHA256, nil: break
        }
        if let given = verify.string("header") {
            if preset == .hmacSHA256 {
                if given.isEmpty || !given.utf8.allSatisfy(isTokenByte) {
                    verify.report("header", "must be a header name, got \"\(given.prefix(100))\"")
                }
                header = given
            } else if let preset {
                verify.report(
                    "header", "is for preset hmac-sha256; \(preset.rawValue) uses \(header ?? "its own header")")
            }
        } else if preset == .hmacSHA256 {
            verify.report("header", "is required with preset hmac-sha256")
        }
        let tolerance = verify.seconds("tolerance", in: 1...86_400)
        if tolerance != nil, let preset, preset != .stripe {
            verify.report("tolerance", "is for preset stripe; \(preset.rawValue) signatures carry no timestamp")
        }
        guard let preset, let variable, let header else { return nil }
        return Verification(
            preset: preset, secretVariable: variable, header: header, tolerance: tolerance ?? Defaults.tolerance)
    }

    /// `NAME` when `text` is exactly `${NAME}` with NAME a shell variable name.
    static func environmentVariable(in text: String) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}"), text.count > 3 else { return nil }
        let name = text.dropFirst(2).dropLast()
        guard let first = name.utf8.first, !(0x30...0x39).contains(first),
            name.utf8.allSatisfy({
                $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            })
        else { return nil }
        return String(name)
    }

    /// An HTTP token character (RFC 9110), as header names are made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }

    private static func rules(_ reader: YAMLMappingReader, catalog: MetricCatalog) -> [Rule] {
        reader.entries("rules", listing: "rule").compactMap { Self.rule($0, catalog: catalog) }
    }

    private static func rule(_ entry: YAMLMappingReader, catalog: MetricCatalog) -> Rule? {
        let before = entry.problems.lines.count
        entry.rejectUnknownKeys(allowed: ruleKeys)
        var conditions: [Condition] = []
        if let when = entry.mapping("when") {
            for pointer in when.keys {
                if JSONPointer.referenceTokens(pointer) == nil { when.report(pointer, pointerRule) }
                guard let node = when.node(pointer) else {
                    when.report(pointer, "must be a string, number or true/false to compare with")
                    continue
                }
                guard case .scalar(let scalar) = node else {
                    when.report(pointer, "must be a string, number or true/false, got \(node.shortDescription)")
                    continue
                }
                conditions.append(Condition(pointer: pointer, value: expected(scalar)))
            }
        }
        let actions = ["increment", "set", "leaderboard", "text"].filter { entry.node($0) != nil }
        guard actions.count == 1, let key = actions.first else {
            entry.report(
                actions.count > 1 ? actions[1] : "increment",
                actions.isEmpty
                    ? "a rule needs one of increment, set, leaderboard or text"
                    : "a rule does one thing: \(actions.joined(separator: " and ")) are both given")
            return nil
        }
        guard let target = entry.string(key) else { return nil }
        let kind: MetricCatalog.Kind = key == "leaderboard" ? .leaderboard : key == "text" ? .text : .metric
        if catalog.kind(of: target) != kind {
            let shownBy =
                switch kind {
                case .leaderboard: "a leaderboard tile"
                case .text: "a text tile"
                default: "an odometer, counter, gauge or chart tile"
                }
            entry.report(key, "\"\(target)\" is not shown by \(shownBy) of any dashboard")
        }
        func pointer(_ field: String) -> String? {
            guard let value = entry.string(field) else { return nil }
            if JSONPointer.referenceTokens(value) == nil { entry.report(field, pointerRule) }
            return value
        }
        func reject(_ fields: [String]) {
            for field in fields where entry.node(field) != nil { entry.report(field, "is not used by a \(key) rule") }
        }
        let amount = pointer("amount")
        let scale = entry.double("scale", in: -1e12...1e12)
        let action: Action
        switch key {
        case "increment":
            reject(["name", "value"])
            action = .increment(metric: target)
        case "set":
            reject(["name", "value"])
            if entry.node("amount") == nil { entry.report("amount", "is required: the pointer to the value to set") }
            action = .set(metric: target)
        case "leaderboard":
            reject(["value"])
            let name = entry.require("name") ? pointer("name") : nil
            action = .leaderboard(id: target, name: name ?? "")
        default:
            reject(["name", "amount", "scale"])
            let value = entry.require("value") ? pointer("value") : nil
            action = .text(id: target, value: value ?? "")
        }
        guard entry.problems.lines.count == before else { return nil }
        return Rule(when: conditions, action: action, amount: amount, scale: scale ?? 1)
    }

    /// A YAML scalar as a value to compare with: a plain `true`/`false` or number as such, anything else a string.
    private static func expected(_ scalar: Node.Scalar) -> Expected {
        guard scalar.style == .plain else { return .string(scalar.string) }
        if scalar.string == "true" || scalar.string == "false" { return .bool(scalar.string == "true") }
        if let number = Double(scalar.string), number.isFinite { return .number(number) }
        return .string(scalar.string)
    }
}

extension WebhookConfiguration {
    /// The webhooks of `files`, in order: each id once.
    static func all(
        in files: [(file: String, yaml: String)], catalog: MetricCatalog, problems: ConfigurationProblems
    ) -> [WebhookConfiguration] {
        RollboardConfiguration.eachOnce(files, noun: "webhook", problems: problems, id: \.id, file: \.file) { node, file in
            WebhookConfiguration(node: node, file: file, catalog: catalog, problems: problems)
        }
    }
}
