import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardServer

/// Reading values out of an upstream's answer: JSON Pointers (RFC 6901) and Prometheus instant-query answers, and
/// every way an answer can fail to give a number.
@Suite("SourceAnswer")
struct SourceAnswerTests {
    static let document = #"{"data":{"visitors":[17,42.5],"a/b":3,"m~n":4,"":5},"name":"wall","flag":true,"none":null}"#

    @Test(
        "a JSON Pointer finds its number, or the failure says why",
        arguments: [
            ("/data/visitors/1", Result<Double, SourceFailure>.success(42.5)),
            ("/data/visitors/0", .success(17)),
            ("/data/a~1b", .success(3)),
            ("/data/m~0n", .success(4)),
            ("/data/", .success(5)),
            ("/data/visitors/2", .failure(.pointerFindsNothing(metric: "m", pointer: "/data/visitors/2"))),
            ("/data/visitors/01", .failure(.pointerFindsNothing(metric: "m", pointer: "/data/visitors/01"))),
            ("/data/visitors/-", .failure(.pointerFindsNothing(metric: "m", pointer: "/data/visitors/-"))),
            ("/missing", .failure(.pointerFindsNothing(metric: "m", pointer: "/missing"))),
            ("/name/0", .failure(.pointerFindsNothing(metric: "m", pointer: "/name/0"))),
            ("/name", .failure(.pointerFindsNoNumber(metric: "m", pointer: "/name", kind: "a string"))),
            ("/flag", .failure(.pointerFindsNoNumber(metric: "m", pointer: "/flag", kind: "a boolean"))),
            ("/none", .failure(.pointerFindsNoNumber(metric: "m", pointer: "/none", kind: "null"))),
            ("/data", .failure(.pointerFindsNoNumber(metric: "m", pointer: "/data", kind: "an object"))),
            ("", .failure(.pointerFindsNoNumber(metric: "m", pointer: "", kind: "an object"))),
        ])
    func pointer(_ pointer: String, expected: Result<Double, SourceFailure>) {
        if case .failure(let failure) = expected {
            #expect(failure.description.hasPrefix("m: "), "the reason names the metric: \(failure)")
        }
        let metric = SourceConfiguration.Metric(metric: "m", pointer: pointer, query: nil)
        let result = Result { () throws(SourceFailure) in
            try SourceAnswer.jsonValues(Array(Self.document.utf8), metrics: [metric])["m"] ?? .nan
        }
        #expect(result == expected)
    }

    @Test(
        "an answer that is not JSON, or not UTF-8, is named so",
        arguments: [
            (Array(#"{"value": 3,"#.utf8), SourceFailure.invalidJSON),
            ([0x7B, 0x22, 0x76, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D], .invalidUTF8),
            (Array("<html>502 Bad Gateway</html>".utf8), .invalidJSON),
            ([], .invalidJSON),
        ])
    func notJSON(_ body: [UInt8], expected: SourceFailure) {
        let metric = SourceConfiguration.Metric(metric: "m", pointer: "/value", query: nil)
        #expect(throws: expected) { try SourceAnswer.jsonValues(body, metrics: [metric]) }
    }

    @Test("several metrics are read from one answer; the first that fails fails them all")
    func several() throws {
        let metrics = [
            SourceConfiguration.Metric(metric: "a", pointer: "/data/visitors/0", query: nil),
            SourceConfiguration.Metric(metric: "b", pointer: "/data/visitors/1", query: nil),
        ]
        #expect(try SourceAnswer.jsonValues(Array(Self.document.utf8), metrics: metrics) == ["a": 17, "b": 42.5])
        let broken = metrics + [SourceConfiguration.Metric(metric: "c", pointer: "/nope", query: nil)]
        #expect(throws: SourceFailure.pointerFindsNothing(metric: "c", pointer: "/nope")) {
            try SourceAnswer.jsonValues(Array(Self.document.utf8), metrics: broken)
        }
    }

    static let longError = #"{"status":"error","errorType":"bad_data","error":""# + String(repeating: "x", count: 500) + #""}"#
    static let longErrorShown = "bad_data: " + String(repeating: "x", count: 199) + "…"

    @Test(
        "a Prometheus instant query gives one number: a scalar or a vector of one sample",
        arguments: [
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"x"},"value":[1700000000.1,"0.25"]}]}}"#,
             Result<Double, SourceFailure>.success(0.25)),
            (#"{"status":"success","data":{"resultType":"scalar","result":[1700000000,"42"]}}"#, .success(42)),
            (#"{"status":"success","data":{"resultType":"vector","result":[]}}"#, .failure(.emptyResult)),
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]},{"metric":{},"value":[1,"2"]}]}}"#,
             .failure(.manySeries(2))),
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]}]}}"#,
             .failure(.notANumber("NaN"))),
            (#"{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"+Inf"]}]}}"#,
             .failure(.notANumber("+Inf"))),
            (#"{"status":"error","errorType":"bad_data","error":"parse error at char 5"}"#,
             .failure(.prometheusError("bad_data: parse error at char 5"))),
            (#"{"status":"error","errorType":"bad_data","error":"1:5: parse error:\nunexpected \u001b end"}"#,
             .failure(.prometheusError("bad_data: 1:5: parse error: unexpected   end"))),
            (#"{"status":"error","errorType":"execution"}"#, .failure(.prometheusError("execution"))),
            (Self.longError, .failure(.prometheusError(Self.longErrorShown))),
            (#"{"status":"success","data":{"resultType":"matrix","result":[]}}"#,
             .failure(.prometheusError("result type matrix is not scalar or vector"))),
            (#"{"status":"success"}"#, .failure(.prometheusError("no data"))),
            (#"[1,2]"#, .failure(.prometheusError("no status"))),
        ])
    func prometheus(_ answer: String, expected: Result<Double, SourceFailure>) {
        let result = Result { () throws(SourceFailure) in try SourceAnswer.prometheusValue(Array(answer.utf8)) }
        #expect(result == expected)
    }
}
