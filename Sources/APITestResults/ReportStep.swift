package import APITestSupport

// MARK: - A step as a JSON report writes it

/// A step of a JSON report (`steps[]` of a test, `schemas/report.schema.json`): the one wire model of a step's
/// result, which the JSON report encodes (`JSONReportDocument`, through ``init(_:)``) and which reading a report
/// back decodes (``StepResult/Reported``, for `apitest merge` and reports written again from JSON). Times are
/// milliseconds; optional members are left out when they have no value.
package struct ReportStep: Codable, Sendable {
    /// A place in a suite file.
    package struct Location: Codable, Sendable {
        /// The suite file.
        package var file: String
        /// The line, from 1.
        package var line: Int
        /// The column, from 1.
        package var column: Int

        /// `location` as the report writes it.
        package init(_ location: SourceLocation) {
            file = location.file
            line = location.line
            column = location.column
        }

        /// The place as a source location.
        package var sourceLocation: SourceLocation { SourceLocation(file: file, line: line, column: column) }
    }

    /// A header field.
    package struct Header: Codable, Sendable {
        /// The name as sent or received.
        package var name: String
        /// The value, sealed.
        package var value: String
    }

    /// The request sent.
    package struct Request: Codable, Sendable {
        /// The method.
        package var method: String
        /// The URL.
        package var url: String
        /// The header fields.
        package var headers: [Header]
        /// The body's preview.
        package var body: String?
        /// The body's size in bytes.
        package var bodySize: Int64
    }

    /// The response received.
    package struct Response: Codable, Sendable {
        /// The status code.
        package var status: Int
        /// The HTTP version.
        package var httpVersion: String?
        /// The header fields.
        package var headers: [Header]
        /// The body's preview.
        package var body: String?
        /// The body's size in bytes.
        package var bodySize: Int
        /// The URL the redirects led to.
        package var effectiveURL: String?
        /// The server's address and port.
        package var remoteAddress: String?
        /// How many redirects were followed.
        package var redirectCount: Int
    }

    /// Each phase measured from the start of the transfer, as libcurl reports them.
    package struct Timings: Codable, Sendable {
        /// Until the name was resolved.
        package var nameLookupMs: Double
        /// Until the connection was made.
        package var connectMs: Double
        /// Until the TLS handshake ended.
        package var tlsHandshakeMs: Double
        /// Until the first byte of the response.
        package var firstByteMs: Double
        /// The whole transfer.
        package var totalMs: Double
    }

    /// A failed expectation, or a warning.
    package struct Failure: Codable, Sendable {
        /// Where the expectation is written.
        package var location: Location
        /// What was checked.
        package var subject: String
        /// The sentence.
        package var message: String
        /// The expected value, as shown.
        package var expected: String?
        /// The actual value, as shown.
        package var actual: String?
    }

    /// An assertion checked, passed or not.
    package struct Assertion: Codable, Sendable {
        /// Where it is written.
        package var location: Location
        /// What was checked.
        package var subject: String
        /// The expected value, as shown.
        package var expected: String
        /// Whether it held.
        package var passed: Bool
    }

    /// The error that ended the step.
    package struct Error: Codable, Sendable {
        /// The error's kind (``TestError/Kind``'s raw value).
        package var kind: String
        /// The sentence.
        package var message: String
        /// Where it concerns, when a place in a suite does.
        package var location: Location?
    }

    /// A request as a curl command for a POSIX shell: secrets as `"${NAME}"`, never their values.
    package struct Reproduce: Codable, Sendable {
        /// The command on one line.
        package var command: String
        /// Where the command departs from the request (a masked credential, a value apitest encoded).
        package var notes: [String]
    }

    /// The step's index in its test.
    package var index: Int
    /// The step's name, and which iteration of its `forEach`; absent for a step without a name.
    package var label: String?
    /// Why the step was not sent (`when: false (...)`, `forEach: no items`); absent when it ran.
    package var skipped: String?
    /// Where the step is written.
    package var location: Location
    /// The request; absent when it could not be built.
    package var request: Request?
    /// The response; absent when there was none.
    package var response: Response?
    /// The transfer's times; absent when there was no answer.
    package var timings: Timings?
    /// The failed expectations.
    package var failures: [Failure]
    /// What is wrong without failing the step (a request that breaks its OpenAPI contract); absent when none.
    package var warnings: [Failure]?
    /// Every assertion checked, passed or not.
    package var assertions: [Assertion]
    /// The error that ended the step.
    package var error: Error?
    /// The names captured.
    package var captured: [String]
    /// How many times the request was sent.
    package var attempts: Int
    /// The request as a curl command, for a step that failed or errored; absent otherwise.
    package var reproduce: Reproduce?
}

// MARK: - Writing

extension ReportStep {
    /// `step` as a report writes it.
    package init(_ step: StepResult) {
        let exchange = step.exchange
        request = exchange.map {
            Request(
                method: $0.method, url: $0.url, headers: $0.requestHeaders.map(Header.init), body: $0.requestBody,
                bodySize: $0.requestBodySize)
        }
        if let exchange, let status = exchange.statusCode {
            response = Response(
                status: status, httpVersion: exchange.httpVersion,
                headers: exchange.responseHeaders.map(Header.init), body: exchange.responseBody,
                bodySize: exchange.responseBodySize, effectiveURL: exchange.effectiveURL,
                remoteAddress: exchange.remoteAddress, redirectCount: exchange.redirectCount)
        }
        timings = exchange?.timings.map {
            Timings(
                nameLookupMs: $0.nameLookup.inReportMilliseconds, connectMs: $0.connect.inReportMilliseconds,
                tlsHandshakeMs: $0.tlsHandshake.inReportMilliseconds,
                firstByteMs: $0.firstByte.inReportMilliseconds, totalMs: $0.total.inReportMilliseconds)
        }
        index = step.index
        label = step.label
        skipped = step.skipped
        location = Location(step.location)
        failures = step.failures.map(Failure.init)
        warnings = step.warnings.isEmpty ? nil : step.warnings.map(Failure.init)
        assertions = step.checks.map {
            Assertion(location: Location($0.location), subject: $0.subject, expected: $0.expected, passed: $0.passed)
        }
        error = step.error.map {
            Error(kind: $0.kind.rawValue, message: $0.message, location: $0.location.map(Location.init))
        }
        captured = step.captured
        attempts = step.attempts
        reproduce =
            step.failures.isEmpty && step.error == nil
            ? nil : step.reproduce.map { Reproduce(command: $0.line, notes: $0.notes) }
    }
}

extension ReportStep.Header {
    /// `header` as a report writes it.
    init(_ header: Exchange.Header) {
        self.init(name: header.name, value: header.value)
    }

    /// The field as an exchange holds it.
    var field: Exchange.Header { Exchange.Header(name: name, value: value) }
}

extension ReportStep.Failure {
    /// `failure` as a report writes it.
    init(_ failure: AssertionFailure) {
        self.init(
            location: ReportStep.Location(failure.location), subject: failure.subject, message: failure.message,
            expected: failure.expected, actual: failure.actual)
    }

    /// The failure as a result holds it.
    var failure: AssertionFailure {
        AssertionFailure(
            location: location.sourceLocation, subject: subject, message: message, expected: expected, actual: actual)
    }
}

// MARK: - Reading

extension StepResult {
    /// The step `item` records: only ``Reported``'s decoding makes one (its texts were sealed when it was written).
    init(_ item: ReportStep) {
        var exchange: Exchange?
        if let request = item.request {
            let response = item.response
            exchange = Exchange(
                method: request.method, url: request.url, requestHeaders: request.headers.map(\.field),
                requestBody: request.body, requestBodySize: request.bodySize, statusCode: response?.status,
                httpVersion: response?.httpVersion, responseHeaders: response?.headers.map(\.field) ?? [],
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
        self.init(
            index: item.index, location: item.location.sourceLocation, exchange: exchange,
            failures: item.failures.map(\.failure),
            checks: item.assertions.map {
                AssertionCheck(
                    location: $0.location.sourceLocation, subject: $0.subject, expected: $0.expected, passed: $0.passed)
            },
            error: item.error.map {
                TestError(
                    kind: TestError.Kind(rawValue: $0.kind) ?? .transfer(.other), message: $0.message,
                    location: $0.location?.sourceLocation)
            }, captured: item.captured, attempts: item.attempts)
        warnings = (item.warnings ?? []).map(\.failure)
        // The one-line command, as reports print it.
        reproduce = item.reproduce.map { ReproduceCommand(words: [$0.command], notes: $0.notes) }
        label = item.label
        skipped = item.skipped
    }
}
