import APITestResults
import APITestSupport
import Foundation
import Testing

/// A step's JSON is one wire model (`ReportStep`): what the JSON report writes, reading it back (`apitest merge`)
/// makes the same step of, which writes the same bytes again.
@Suite struct ReportStepRoundTripTests {
    @Test func aStepWrittenReadBackAndWrittenAgainIsTheSameJSON() throws {
        let location = SourceLocation(file: "suites/a.yaml", line: 3, column: 5)
        var exchange = HARReportTests.draft(
            "POST", "http://127.0.0.1:8080/items", offset: 1,
            body: .text("{\"state\":\"done\"}", readBytes: 16, totalSize: 16), size: 16)
        exchange.requestBody = .text("name=carol", readBytes: 10, totalSize: 10)
        exchange.requestBodySize = 10
        var draft = StepDraft(index: 2, location: location, exchange: exchange)
        draft.label = "create"
        draft.attempts = 2
        draft.error = TestError(kind: .transfer(.connectionRefused), message: "refused", location: location)
        let step = draft.sealed(by: HARReportTests.Sealer())

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let written = try encoder.encode(ReportStep(step))
        let read = StepResult(reported: try JSONDecoder().decode(StepResult.Reported.self, from: written))
        let again = try encoder.encode(ReportStep(read))
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: written, as: UTF8.self))
        let text = String(decoding: written, as: UTF8.self)
        for key in ["\"label\" : \"create\"", "\"attempts\" : 2", "\"bodySize\" : 10", "\"totalMs\" : 25", "\"kind\""] {
            #expect(text.contains(key), "\(text)")
        }
    }
}
