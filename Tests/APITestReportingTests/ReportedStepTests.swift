import APITestReporting
import APITestResults
import Foundation
import Testing

/// A step read back from a JSON report: the one way outside the results module to a step's result besides sealing.
@Suite("Steps read back from a JSON report")
struct ReportedStepTests {
    /// The steps of every test of `record`'s JSON report, each decoded on its own as a report's step.
    private func readBack(_ record: RunRecord) throws -> [StepResult] {
        let text = JSONReportFormat().render(record)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let suites = try #require(report["suites"] as? [[String: Any]])
        let tests = try suites.flatMap { try #require($0["tests"] as? [[String: Any]]) }
        let steps = try tests.flatMap { try #require($0["steps"] as? [Any]) }
        return try steps.map { step in
            let data = try JSONSerialization.data(withJSONObject: step)
            return StepResult(reported: try JSONDecoder().decode(StepResult.Reported.self, from: data))
        }
    }

    @Test("decoding a report's step gives back the step that was written, its texts as they were")
    func roundTrip() throws {
        let record = ReportFixtures.mixedRecord
        let written = record.results.flatMap(\.steps)
        #expect(try readBack(record) == written)
        let weird = ReportFixtures.weirdRecord.results.flatMap(\.steps)
        let read = try readBack(ReportFixtures.weirdRecord)
        #expect(read.map(\.failures) == weird.map(\.failures))
        #expect(read.map { $0.exchange?.responseBody } == weird.map { $0.exchange?.responseBody })
        #expect(read.map { $0.exchange?.requestHeaders } == weird.map { $0.exchange?.requestHeaders })
    }

    @Test("a step that is not a report's step is refused, not read as an empty one")
    func notAStep() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StepResult.Reported.self, from: Data(#"{"index": 0}"#.utf8))
        }
    }
}
