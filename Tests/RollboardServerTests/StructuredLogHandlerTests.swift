import Logging
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardServer

@Suite("StructuredLogHandler")
struct StructuredLogHandlerTests {
    private func line(_ format: StructuredLogHandler.Format, _ body: (Logger) -> Void) -> String {
        let lines = Synchronized<[String]>([])
        var logger = Logger(label: "rollboard") { label in
            StructuredLogHandler(
                label: label, format: format, write: { line in lines.update { $0.append(line) } },
                now: { 1_795_499_094.25 })
        }
        logger[metadataKey: "node"] = "n1"
        body(logger)
        return lines.update { $0.joined() }
    }

    @Test("logfmt lines carry time, level, logger, message and sorted fields, quoting only what needs it")
    func logfmt() {
        let text = line(.logfmt) { logger in
            logger.warning("request failed", metadata: ["status": "503", "path": "/api/v1/metrics/a b", "request_id": "ab-1"])
        }
        #expect(
            text
                == #"ts=2026-11-24T05:44:54.250Z level=warning logger=rollboard msg="request failed" node=n1 path="/api/v1/metrics/a b" request_id=ab-1 status=503"#
                + "\n")
    }

    @Test("json lines are one object each, every value a string, quotes and newlines escaped")
    func json() {
        let text = line(.json) { logger in logger.info("said \"hi\"\nthen left", metadata: ["k": "v=1"]) }
        #expect(
            text
                == #"{"ts":"2026-11-24T05:44:54.250Z","level":"info","logger":"rollboard","msg":"said \"hi\"\nthen left","k":"v=1","node":"n1"}"#
                + "\n")
    }

    @Test("below the handler's level nothing is written")
    func level() {
        #expect(line(.logfmt) { $0.debug("hidden") }.isEmpty)
    }

    @Test("logfmt keeps printable words bare and quotes the rest", arguments: [
        ("plain", "plain"), ("", #""""#), ("two words", #""two words""#), ("a=b", #""a=b""#), ("tab\t", #""tab\t""#),
        ("é", #""é""#),
    ])
    func logfmtValues(value: String, written: String) {
        #expect(StructuredLogHandler.logfmtValue(value) == written)
    }
}
