import APITestHTTP
import APITestJSON
import APITestJSONSchema
package import APITestResults
package import APITestSecrets
package import APITestSuite
package import APITestSupport
import Foundation

/// Checks a response against a step's expectations and takes its captures.
package final class ResponseChecker: Sendable {
    let evaluator = PredicateEvaluator()
    let queries = QueryEvaluator()

    /// A checker (its evaluators cache compiled patterns for the run).
    package init() {}

    // MARK: - Expectations

    /// The failures of `expect` against the response, and with `listsChecks` every check made (those that held
    /// too, for reports that list them).
    package func check(
        _ expect: Expectations, stepLocation: SourceLocation, body: inout ResponseBody, context: TemplateContext,
        masker: SecretMasker, requireSuccessStatus: Bool = true, decoding: ResponseDecoding? = nil,
        listsChecks: Bool = true
    ) -> (failures: [AssertionFailure], checks: [AssertionCheck]) {
        var failures: [AssertionFailure] = []
        var checks: [AssertionCheck] = []
        func record(_ check: @autoclosure () -> AssertionCheck, _ failure: AssertionFailure?) {
            if listsChecks { checks.append(check()) }
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
        } else if requireSuccessStatus {
            let passed = expect.acceptsStatus(status)
            record(
                AssertionCheck(location: stepLocation, subject: "status", expected: "2xx", passed: passed),
                passed
                    ? nil
                    : AssertionFailure(
                        location: stepLocation, subject: "status",
                        message: "expected a 2xx status (no status expectation given), got \(status)",
                        expected: "2xx", actual: String(status)))
        }
        // As AFNetworking, a response without a body (204, 304, a HEAD) has no content type to accept.
        if let acceptable = decoding?.acceptableContentTypes, let location = decoding?.location,
            body.response.bodySize > 0
        {
            let type = body.response.headers["Content-Type"]
            let passed =
                type.map { type in acceptable.contains { MediaTypePattern.matches(type, pattern: $0) } } ?? false
            let expected = "one of " + acceptable.joined(separator: ", ")
            record(
                AssertionCheck(location: location, subject: "content type", expected: expected, passed: passed),
                passed
                    ? nil
                    : AssertionFailure(
                        location: location, subject: "content type",
                        message: "unacceptable content type: expected \(expected), got \(type ?? "none")",
                        expected: expected, actual: type ?? "none"))
        }
        let filters = FilterEvaluator()
        for assertion in expect.assertions {
            let (check, failure) = check(assertion, &body, context, filters, masker, listsCheck: listsChecks)
            if listsChecks, let check { checks.append(check) }
            if let failure { failures.append(failure) }
        }
        if let schema = expect.schema {
            let (check, failure) = checkSchema(schema, &body)
            record(check, failure)
        }
        return (failures, checks)
    }

    /// `assertion` against the response: the check and its failure, if any; no check for one that held when the
    /// check is not listed (`listsCheck`).
    private func check(
        _ assertion: Assertion, _ body: inout ResponseBody, _ context: TemplateContext, _ filters: FilterEvaluator,
        _ masker: SecretMasker, listsCheck: Bool
    ) -> (AssertionCheck?, AssertionFailure?) {
        let subject = assertion.subject
        var filters = filters
        let argument: JSONValue
        do {
            argument = try assertion.argument.render(context)
        } catch {
            return unchecked(assertion, message: "\(subject): \(error.message)")
        }
        let found: QueryEvaluator.Found
        switch queries.value(of: assertion.query, in: &body) {
        case .success(let value): found = value
        case .failure(let problem): return unchecked(assertion, message: "\(subject): \(problem.text)")
        }
        // A value computed by filters from text that holds a secret is secret in every form the filters give it.
        let derivedFromSecret =
            !assertion.filters.isEmpty && Self.texts(of: found).contains(where: masker.containsSecret)
        filters.concealsValues = Self.isCredential(assertion.query) || derivedFromSecret
        var outcome: PredicateEvaluator.Outcome
        var compared: JSONValue?
        // A JSON value compares by its JSON type; text may stand for the number or boolean it spells.
        let source = QueryEvaluator.source(of: assertion.query, after: assertion.filters)
        switch found {
        case .each(let values) where assertion.predicate != .exists && assertion.predicate != .notExists:
            // A repeated header holds when any of its values does (all of them, for the negative predicates).
            var outcomes: [PredicateEvaluator.Outcome] = []
            for value in values {
                switch apply(assertion.filters, to: value, filters) {
                case .success(let filtered):
                    outcomes.append(
                        evaluator.evaluate(
                            assertion.predicate, subject: filtered, from: source, argument: argument,
                            pattern: assertion.pattern))
                case .failure(let problem): return unchecked(assertion, message: "\(subject): \(problem.text)")
                }
            }
            let passed =
                assertion.predicate.holdsForAbsent
                ? outcomes.allSatisfy(\.passed) : outcomes.contains(where: \.passed)
            outcome = PredicateEvaluator.Outcome(
                passed: passed, expectation: outcomes[0].expectation,
                actual: outcomes.map(\.actual).joined(separator: ", "))
        default:
            let start: JSONValue?
            switch found {
            case .one(let value): start = value
            case .each(let values): start = values.first
            case .noNodes:
                // Nothing selected: absent for `exists`, an empty list for everything else (`count`, `equals: []`).
                let asksPresence = assertion.predicate == .exists || assertion.predicate == .notExists
                start = asksPresence && assertion.filters.isEmpty ? JSONValue?.none : .array([])
            }
            switch apply(assertion.filters, to: start, filters) {
            case .success(let filtered): compared = filtered
            case .failure(let problem): return unchecked(assertion, message: "\(subject): \(problem.text)")
            }
            // A duration is compared in milliseconds; say so, as the suite wrote `500ms`.
            let unit = assertion.query == .duration && assertion.filters.isEmpty ? "ms" : nil
            outcome = evaluator.evaluate(
                assertion.predicate, subject: compared, from: source,
                argument: Self.typed(argument, of: assertion, subject: compared, context: context), unit: unit,
                pattern: assertion.pattern)
        }
        // Credentials (cookies, credential headers) are secrets: a failure shows that they differ, never what
        // they hold.
        if Self.isCredential(assertion.query) || derivedFromSecret, outcome.actual != "nothing" {
            outcome.actual = SecretMasker.mask
            compared = nil
        }
        // A check that held and is not listed never writes its expectation.
        guard listsCheck || !outcome.passed else { return (nil, nil) }
        let check = AssertionCheck(
            location: assertion.location, subject: subject, expected: outcome.expectation, passed: outcome.passed)
        guard !outcome.passed else { return (check, nil) }
        // Strings that only look the same (`"é"`, `"e\u{301}"`) are shown with escapes.
        (outcome.expectation, outcome.actual) = PredicateEvaluator.distinguishable(outcome.expectation, outcome.actual)
        // Values in the message are quoted: sealing masks each whole, then cuts it (the full ones go to `expected`
        // and `actual`).
        let limit = Self.messageValueLimit
        var text: MessageText =
            "\(subject): expected \(quoting: outcome.expectation, limit: limit), got \(quoting: outcome.actual, limit: limit)"
        if assertion.predicate == .equals, let compared,
            let difference = JSONDiff.firstDifference(expected: argument, actual: compared)
        {
            let singular: Bool
            if case .jsonpath(let path) = assertion.query, assertion.filters.isEmpty {
                singular = path.isSingular
            } else {
                singular = false
            }
            let root = singular ? subject : "\(subject) → $"
            text = "\(subject): differs at \(root)\(difference.path): \(quoting: difference.description, limit: limit)"
        }
        let failure = AssertionFailure(
            location: assertion.location, subject: subject, text: text, expected: outcome.expectation,
            actual: outcome.actual)
        return (check, failure)
    }

    /// The JSON body against a JSON Schema: a failure lists the first errors, each with its instance path,
    /// keyword and schema path.
    private func checkSchema(
        _ expectation: SchemaExpectation, _ body: inout ResponseBody
    ) -> (AssertionCheck, AssertionFailure?) {
        let subject = "schema \(expectation.source)"
        let expected = "to match the schema \(expectation.source)"
        let check = { (passed: Bool) in
            AssertionCheck(location: expectation.location, subject: subject, expected: expected, passed: passed)
        }
        let document: JSONBodyDocument
        switch body.document() {
        case .success(let value): document = value
        case .failure(let problem):
            return (
                check(false),
                AssertionFailure(
                    location: expectation.location, subject: subject, message: "\(subject): \(problem.text)")
            )
        }
        let result = document.validate(against: expectation.schema, maximumErrors: Self.schemaErrorCount)
        guard !result.isValid else { return (check(true), nil) }
        // One line an error: an instance path holds the body's member names, which a server may fill with lines.
        let shown = result.errors.prefix(Self.schemaErrorLimit).map(\.description.onOneLine)
        let more =
            result.errors.count > shown.count
            ? "\n… and \(result.isTruncated ? "at least " : "")\(result.errors.count - shown.count) more" : ""
        let count =
            result.isTruncated
            ? "at least \(result.errors.count) errors"
            : result.errors.count == 1 ? "1 error" : "\(result.errors.count) errors"
        let first = result.errors[0]
        return (
            check(false),
            AssertionFailure(
                location: expectation.location, subject: subject,
                message:
                    "\(subject): \(count); first at \(first.instancePath.isEmpty ? "the root" : first.instancePath.onOneLine): "
                    + "\(first.message) (\(first.keyword) at \(first.schemaPath))",
                expected: expected, actual: shown.joined(separator: "\n") + more)
        )
    }

    /// The most schema errors listed in a failure.
    static let schemaErrorLimit = 10
    /// The most schema errors counted: a body that fails everywhere is reported as "at least 1000 errors"
    /// rather than costing a message (and its paths) for each of millions of failures.
    static let schemaErrorCount = 1000

    /// `value` through the filters of `list` in order (of a check or a capture), or the first filter's problem.
    func apply(
        _ list: [Filter], to value: JSONValue?, _ filters: FilterEvaluator
    ) -> Result<JSONValue?, CheckProblem> {
        var current = value
        for filter in list {
            switch filters.apply(filter, to: current) {
            case .success(let next): current = next
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(current)
    }

    /// An assertion that could not be evaluated (bad template, body not JSON, a filter's type): a failure.
    private func unchecked(_ assertion: Assertion, message: String) -> (AssertionCheck, AssertionFailure?) {
        let expected = "\(assertion.predicate) \(assertion.argument.templates.map(\.source).joined(separator: ", "))"
        return (
            AssertionCheck(location: assertion.location, subject: assertion.subject, expected: expected, passed: false),
            AssertionFailure(location: assertion.location, subject: assertion.subject, message: message)
        )
    }

    /// True for queries whose values are credentials: the value of a cookie, and headers such as `Authorization`
    /// and `Set-Cookie`.
    static func isCredential(_ query: Query) -> Bool {
        switch query {
        case .header(let name): SecretMasker.sensitiveHeaders.contains(name.lowercased())
        case .cookie(_, let attribute): attribute == .value
        default: false
        }
    }

    /// The argument as compared: a value that came whole from a placeholder as text (a CSV cell, a `--var`) and
    /// reads as a number is that number when the subject is a number, so `equals: "{{ code }}"` holds for 200.
    /// A capture from a JSON source keeps its JSON type: a captured string `"5"` does not equal the number 5.
    static func typed(
        _ argument: JSONValue, of assertion: Assertion, subject: JSONValue?, context: TemplateContext
    ) -> JSONValue {
        guard case .string(let text) = argument, case .string(let template) = assertion.argument,
            let name = template.singlePlaceholderName, !context.isJSONTyped(name)
        else { return argument }
        switch subject {
        case .integer?, .double?, .number?:
            if let number = JSONValue(numberText: text) { return number }
            if let number = Double(text), number.isFinite { return .double(number) }
            return argument
        default:
            return argument
        }
    }

    /// The texts of what a query found, as a failure message would show them.
    static func texts(of found: QueryEvaluator.Found) -> [String] {
        switch found {
        case .one(let value): return value.map { [JSONWriter.string($0)] } ?? []
        case .each(let values): return values.map { JSONWriter.string($0) }
        case .noNodes: return []
        }
    }

    /// The most characters of one value shown inside a failure message.
    static let messageValueLimit = 120
}
