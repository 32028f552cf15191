package import APITestSupport

// MARK: - Read from a report

extension StepResult {
    /// A step as a JSON report apitest wrote holds it (`steps[]` of a test): its texts were sealed when the report
    /// was written. Made only by decoding that JSON, so no module outside this one builds a step's result from
    /// text of its own: the way in besides ``StepDraft/sealed(by:)``.
    package struct Reported: Sendable, Decodable {
        /// The step the report recorded.
        let step: StepResult

        /// Decodes a step of a JSON report (the `JSONReportDocument.Step` shape of APITestReporting).
        package init(from decoder: any Decoder) throws {
            let item = try Step(from: decoder)
            var exchange: Exchange?
            if let request = item.request {
                let response = item.response
                exchange = Exchange(
                    method: request.method, url: request.url,
                    requestHeaders: request.headers.map { Exchange.Header(name: $0.name, value: $0.value) },
                    requestBody: request.body, requestBodySize: request.bodySize, statusCode: response?.status,
                    httpVersion: response?.httpVersion,
                    responseHeaders: response?.headers.map { Exchange.Header(name: $0.name, value: $0.value) } ?? [],
                    responseBody: response?.body, responseBodySize: response?.bodySize ?? 0,
                    effectiveURL: response?.effectiveURL, remoteAddress: response?.remoteAddress,
                    redirectCount: response?.redirectCount ?? 0,
                    timings: item.timings.map {
                        Exchange.Timings(
                            nameLookup: .milliseconds($0.nameLookupMs), connect: .milliseconds($0.connectMs),
                            tlsHandshake: .milliseconds($0.tlsHandshakeMs), firstByte: .milliseconds($0.firstByteMs),
                            total: .milliseconds($0.totalMs))
                    })
            }
            var result = StepResult(
                index: item.index, location: item.location.sourceLocation, exchange: exchange,
                failures: item.failures.map(\.failure),
                checks: item.assertions.map {
                    AssertionCheck(
                        location: $0.location.sourceLocation, subject: $0.subject, expected: $0.expected,
                        passed: $0.passed)
                },
                error: item.error.map {
                    TestError(
                        kind: TestError.Kind(rawValue: $0.kind) ?? .transfer(.other), message: $0.message,
                        location: $0.location?.sourceLocation)
                }, captured: item.captured, attempts: item.attempts)
            result.warnings = (item.warnings ?? []).map(\.failure)
            // The one-line command, as reports print it.
            result.reproduce = item.reproduce.map { ReproduceCommand(words: [$0.command], notes: $0.notes) }
            result.label = item.label
            result.skipped = item.skipped
            step = result
        }
    }

    /// The step a report recorded (`apitest merge`, reports written again from JSON).
    package init(reported step: Reported) {
        self = step.step
    }
}

// MARK: - The report's step

/// The fields of a JSON report's step that a result is made of, as the report writer encodes them.
private struct Step: Decodable {
    struct Location: Decodable {
        var file: String
        var line: Int
        var column: Int

        var sourceLocation: SourceLocation { SourceLocation(file: file, line: line, column: column) }
    }

    struct Header: Decodable {
        var name: String
        var value: String
    }

    struct Request: Decodable {
        var method: String
        var url: String
        var headers: [Header]
        var body: String?
        var bodySize: Int64
    }

    struct Response: Decodable {
        var status: Int
        var httpVersion: String?
        var headers: [Header]
        var body: String?
        var bodySize: Int
        var effectiveURL: String?
        var remoteAddress: String?
        var redirectCount: Int
    }

    struct Timings: Decodable {
        var nameLookupMs: Double
        var connectMs: Double
        var tlsHandshakeMs: Double
        var firstByteMs: Double
        var totalMs: Double
    }

    struct Failure: Decodable {
        var location: Location
        var subject: String
        var message: String
        var expected: String?
        var actual: String?

        var failure: AssertionFailure {
            AssertionFailure(
                location: location.sourceLocation, subject: subject, message: message, expected: expected,
                actual: actual)
        }
    }

    struct Assertion: Decodable {
        var location: Location
        var subject: String
        var expected: String
        var passed: Bool
    }

    struct Error: Decodable {
        var kind: String
        var message: String
        var location: Location?
    }

    struct Reproduce: Decodable {
        var command: String
        var notes: [String]
    }

    var index: Int
    var label: String?
    var skipped: String?
    var location: Location
    var request: Request?
    var response: Response?
    var timings: Timings?
    var failures: [Failure]
    var warnings: [Failure]?
    var assertions: [Assertion]
    var error: Error?
    var captured: [String]
    var attempts: Int
    var reproduce: Reproduce?
}
