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
            TestResult(
                suiteName: name, suiteFile: file, name: test.name, location: test.location.sourceLocation,
                status: TestStatus(rawValue: test.status) ?? .errored, duration: .milliseconds(test.durationMs),
                steps: test.steps.map(\.result), reason: test.reason)
        }
    }
}

extension JSONReportDocument.Location {
    var sourceLocation: SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

extension JSONReportDocument.Step {
    /// The step as a result: what every report format renders.
    var result: StepResult {
        var exchange: Exchange?
        if let request {
            exchange = Exchange(
                method: request.method, url: request.url,
                requestHeaders: request.headers.map { Exchange.Header(name: $0.name, value: $0.value) },
                requestBody: request.body, requestBodySize: request.bodySize, statusCode: response?.status,
                httpVersion: response?.httpVersion,
                responseHeaders: response?.headers.map { Exchange.Header(name: $0.name, value: $0.value) } ?? [],
                responseBody: response?.body, responseBodySize: response?.bodySize ?? 0,
                effectiveURL: response?.effectiveURL, remoteAddress: response?.remoteAddress,
                redirectCount: response?.redirectCount ?? 0,
                timings: timings.map {
                    Exchange.Timings(
                        nameLookup: .milliseconds($0.nameLookupMs), connect: .milliseconds($0.connectMs),
                        tlsHandshake: .milliseconds($0.tlsHandshakeMs), firstByte: .milliseconds($0.firstByteMs),
                        total: .milliseconds($0.totalMs))
                })
        }
        func failure(_ item: JSONReportDocument.Failure) -> AssertionFailure {
            AssertionFailure(
                location: item.location.sourceLocation, subject: item.subject, message: item.message,
                expected: item.expected, actual: item.actual)
        }
        // The texts were sealed when the report was written: a report is the other way to a step's result.
        return StepResult(
            reported: StepResult.Reported(
                index: index, location: location.sourceLocation, exchange: exchange, failures: failures.map(failure),
                warnings: (warnings ?? []).map(failure),
                checks: assertions.map {
                    AssertionCheck(
                        location: $0.location.sourceLocation, subject: $0.subject, expected: $0.expected,
                        passed: $0.passed)
                },
                error: error.map {
                    TestError(
                        kind: TestError.Kind(rawValue: $0.kind) ?? .transfer(.other), message: $0.message,
                        location: $0.location?.sourceLocation)
                }, captured: captured, attempts: attempts,
                // The one-line command, as reports print it.
                reproduce: reproduce.map { ReproduceCommand(words: [$0.command], notes: $0.notes) }, label: label,
                skipped: skipped))
    }
}
