import APITestResults
import APITestSupport
import Foundation

// MARK: - Reading a JSON report back

extension JSONReportDocument {
    /// When the run started (the epoch when the text is not a date).
    var startDate: Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: startedAt) ?? Date(timeIntervalSince1970: 0)
    }
}

extension JSONReportDocument.Suite {
    /// The suite's finished tests as results.
    var results: [TestResult] {
        tests.map { test in
            var result = TestResult(
                suiteName: name, suiteFile: file, name: test.name, location: test.location.sourceLocation,
                status: JSONReportDocument.status(test.status), duration: .milliseconds(test.durationMs),
                steps: test.reportedSteps.map(StepResult.init(reported:)), reason: test.reason)
            result.earlierAttempts = (test.earlierAttempts ?? []).map { attempt in
                TestAttempt(
                    status: JSONReportDocument.status(attempt.status), duration: .milliseconds(attempt.durationMs),
                    steps: attempt.reportedSteps.map(StepResult.init(reported:)), reason: attempt.reason)
            }
            return result
        }
    }
}

extension JSONReportDocument {
    /// A test's status as a report writes it: `flaky` is a test that passed in the end (its earlier attempts say
    /// how it did before); an unknown word reads as `errored`.
    static func status(_ text: String) -> TestStatus {
        text == flakyStatus ? .passed : TestStatus(rawValue: text) ?? .errored
    }
}

extension JSONReportDocument.Test {
    /// Decodes a test of a report, its steps twice: as the document holds them, and as results (the texts were
    /// sealed when the report was written; only decoding them makes a result of them outside the results module).
    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        name = try members.decode(String.self, forKey: .name)
        location = try members.decode(JSONReportDocument.Location.self, forKey: .location)
        status = try members.decode(String.self, forKey: .status)
        durationMs = try members.decode(Double.self, forKey: .durationMs)
        reason = try members.decodeIfPresent(String.self, forKey: .reason)
        steps = try members.decode([JSONReportDocument.Step].self, forKey: .steps)
        reportedSteps = try members.decode([StepResult.Reported].self, forKey: .steps)
        earlierAttempts = try members.decodeIfPresent([JSONReportDocument.Attempt].self, forKey: .earlierAttempts)
    }
}

extension JSONReportDocument.Attempt {
    /// Decodes an earlier attempt of a test, its steps as the document holds them and as results.
    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        status = try members.decode(String.self, forKey: .status)
        durationMs = try members.decode(Double.self, forKey: .durationMs)
        reason = try members.decodeIfPresent(String.self, forKey: .reason)
        steps = try members.decode([JSONReportDocument.Step].self, forKey: .steps)
        reportedSteps = try members.decode([StepResult.Reported].self, forKey: .steps)
    }
}
