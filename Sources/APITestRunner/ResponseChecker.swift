import APITestHTTP
import APITestJSON
import APITestResults
import APITestSuite
import APITestSupport
import Foundation
import Synchronization

/// Checks a response against a step's expectations and takes its captures.
final class ResponseChecker: Sendable {
    let evaluator = PredicateEvaluator()
    private let paths = Mutex<[String: JSONPath]>([:])

    /// The response body parsed as JSON once, on first use.
    struct Body {
        let response: HTTPResponse
        private var parsed: Result<JSONValue, JSONParseError>?

        init(_ response: HTTPResponse) {
            self.response = response
        }

        mutating func json() -> Result<JSONValue, JSONParseError> {
            if let parsed { return parsed }
            let result: Result<JSONValue, JSONParseError>
            do {
                result = .success(try JSONParser.parse(response.body))
            } catch {
                result = .failure(error)
            }
            parsed = result
            return result
        }
    }

    // MARK: - Expectations

    /// Every check of `expect` against the response, and the failures among them.
    func check(
        _ expect: Expectations, stepLocation: SourceLocation, body: inout Body, context: TemplateContext
    ) -> (failures: [AssertionFailure], checks: [AssertionCheck]) {
        var failures: [AssertionFailure] = []
        var checks: [AssertionCheck] = []
        func record(_ check: AssertionCheck, _ failure: AssertionFailure?) {
            checks.append(check)
            if let failure { failures.append(failure) }
        }
        let status = body.response.statusCode
        if let expected = expect.status {
            let passed = expected.accepts(status)
            record(
                AssertionCheck(
                    location: expected.location, subject: "status", expected: expected.description, passed: passed),
                passed
                    ? nil
                    : AssertionFailure(
                        location: expected.location, subject: "status",
                        message: "expected status \(expected), got \(status)", expected: expected.description,
                        actual: String(status)))
        } else {
            let passed = (200...299).contains(status)
            record(
                AssertionCheck(location: stepLocation, subject: "status", expected: "2xx", passed: passed),
                passed
                    ? nil
                    : AssertionFailure(
                        location: stepLocation, subject: "status",
                        message: "expected a 2xx status (no status expectation given), got \(status)",
                        expected: "2xx", actual: String(status)))
        }
        for assertion in expect.headers {
            let (check, failure) = checkHeader(assertion, body.response, context)
            record(check, failure)
        }
        for assertion in expect.json {
            let (check, failure) = checkJSON(assertion, &body, context)
            record(check, failure)
        }
        return (failures, checks)
    }

    private func checkHeader(
        _ assertion: Assertion, _ response: HTTPResponse, _ context: TemplateContext
    )
        -> (AssertionCheck, AssertionFailure?)
    {
        let subject = "header \(assertion.subject)"
        let argument: JSONValue
        do {
            argument = try assertion.argument.render(context)
        } catch {
            return unchecked(assertion, subject: subject, message: error.message)
        }
        let values = response.headers.values(for: assertion.subject)
        var outcome: PredicateEvaluator.Outcome
        if values.count <= 1 || assertion.predicate == .exists {
            outcome = evaluator.evaluate(
                assertion.predicate, subject: values.first.map(JSONValue.string), argument: argument)
        } else {
            // A repeated header holds when any of its values does (all of them, for the negative predicates).
            let outcomes = values.map {
                evaluator.evaluate(assertion.predicate, subject: .string($0), argument: argument)
            }
            let negative = assertion.predicate == .notEquals || assertion.predicate == .notContains
            let passed = negative ? outcomes.allSatisfy(\.passed) : outcomes.contains(where: \.passed)
            outcome = PredicateEvaluator.Outcome(
                passed: passed, expectation: outcomes[0].expectation,
                actual: values.map { PredicateEvaluator.display(.string($0)) }.joined(separator: ", "))
        }
        // The values of these headers are credentials: a failure shows that they differ, never what they hold.
        if SecretMasker.sensitiveHeaders.contains(assertion.subject.lowercased()), !values.isEmpty {
            outcome.actual = SecretMasker.mask
        }
        return result(assertion, subject: subject, outcome)
    }

    private func checkJSON(
        _ assertion: Assertion, _ body: inout Body, _ context: TemplateContext
    )
        -> (AssertionCheck, AssertionFailure?)
    {
        let subject = assertion.subject
        let path: JSONPath
        do {
            path = try jsonPath(assertion.subject)
        } catch {
            return unchecked(assertion, subject: subject, message: "invalid JSONPath: \(error.message)")
        }
        let document: JSONValue
        switch body.json() {
        case .success(let value): document = value
        case .failure(let error):
            return unchecked(
                assertion, subject: subject, message: "\(subject): the response body is not JSON (\(error))")
        }
        let argument: JSONValue
        do {
            argument = try assertion.argument.render(context)
        } catch {
            return unchecked(assertion, subject: subject, message: error.message)
        }
        let nodes = path.query(document)
        let value: JSONValue? = path.isSingular ? nodes.first : (nodes.isEmpty ? nil : .array(nodes))
        return result(
            assertion, subject: subject, evaluator.evaluate(assertion.predicate, subject: value, argument: argument))
    }

    private func result(
        _ assertion: Assertion, subject: String, _ outcome: PredicateEvaluator.Outcome
    )
        -> (AssertionCheck, AssertionFailure?)
    {
        let check = AssertionCheck(
            location: assertion.location, subject: subject, expected: outcome.expectation, passed: outcome.passed)
        guard !outcome.passed else { return (check, nil) }
        let failure = AssertionFailure(
            location: assertion.location, subject: subject,
            message: "\(subject): expected \(outcome.expectation), got \(outcome.actual)",
            expected: outcome.expectation,
            actual: outcome.actual)
        return (check, failure)
    }

    /// An assertion that could not be evaluated (bad template, body not JSON): a failure with `message`.
    private func unchecked(
        _ assertion: Assertion, subject: String, message: String
    ) -> (AssertionCheck, AssertionFailure?) {
        let expected = "\(assertion.predicate) \(assertion.argument.templates.map(\.source).joined(separator: ", "))"
        return (
            AssertionCheck(location: assertion.location, subject: subject, expected: expected, passed: false),
            AssertionFailure(location: assertion.location, subject: subject, message: message)
        )
    }

    // MARK: - Captures

    /// Takes the step's captures into `context`; a capture with no value is a failure.
    func capture(
        _ captures: [CaptureSpec], body: inout Body, into context: inout TemplateContext
    ) -> (captured: [String], failures: [AssertionFailure]) {
        var captured: [String] = []
        var failures: [AssertionFailure] = []
        for capture in captures {
            switch value(of: capture.source, in: &body) {
            case .success(let value):
                context.set(capture.name, value, secret: false)
                captured.append(capture.name)
            case .failure(let problem):
                failures.append(
                    AssertionFailure(
                        location: capture.location, subject: "capture \(capture.name)",
                        message: "capture '\(capture.name)': \(problem.text)"))
            }
        }
        return (captured, failures)
    }

    /// Why a capture found no value.
    struct CaptureProblem: Error {
        var text: String
    }

    /// The value a capture takes from the response.
    private func value(of source: CaptureSpec.Source, in body: inout Body) -> Result<JSONValue, CaptureProblem> {
        switch source {
        case .header(let name):
            guard let value = body.response.headers[name] else {
                return .failure(CaptureProblem(text: "the response has no header '\(name)'"))
            }
            return .success(.string(value))
        case .jsonpath(let expression):
            let path: JSONPath
            do {
                path = try jsonPath(expression)
            } catch {
                return .failure(CaptureProblem(text: "invalid JSONPath: \(error.message)"))
            }
            switch body.json() {
            case .failure(let error):
                return .failure(CaptureProblem(text: "the response body is not JSON (\(error))"))
            case .success(let document):
                guard let value = path.query(document).first else {
                    return .failure(CaptureProblem(text: "\(expression) matched nothing"))
                }
                return .success(value)
            }
        }
    }

    private func jsonPath(_ expression: String) throws(JSONPathError) -> JSONPath {
        if let cached = paths.withLock({ $0[expression] }) { return cached }
        let path = try JSONPath(expression)
        paths.withLock { $0[expression] = path }
        return path
    }
}
