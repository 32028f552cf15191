import APITestJSON
import APITestOpenAPI
import APITestSecrets
import APITestSuiteWriting
import APITestSupport

// MARK: - A stateful finding as a sequence

extension FindingWriter {
    /// The steps a finding is written with, in order: the (shrunk) sequence for a finding of the stateful phase,
    /// else its one request.
    func writtenSequence(_ finding: FuzzFinding) -> [CaseOutcome] {
        let outcome = finding.minimal
        guard outcome.fuzzCase.phase == .stateful else { return [outcome] }
        return outcome.history + [outcome]
    }

    /// The comment lines of a stateful finding: what shrinking left out, or that the sequence did not fail the
    /// same way again when re-run (written as found).
    func sequenceComments(_ finding: FuzzFinding) -> [String] {
        var lines: [String] = []
        switch finding.reproduction {
        case .reproduced?:
            lines += finding.shrinkNotes.map { engine.masker.mask($0) }
            if finding.shrinkNotes.isEmpty {
                lines.append("re-run: it failed the same way again; no step or value could be left out")
            }
        case .notReproduced(let requests)?:
            lines.append(
                "did not reproduce: the sequence, re-run (\(requests) request\(requests == 1 ? "" : "s")), did not "
                    + "fail the same way again (a flaky server, or state from before the sequence); written as found")
        case .notTried?:
            lines.append("not re-run (the shrinking budget or --duration ran out): written as found")
        case nil:
            break
        }
        return lines
    }

    /// The test of a stateful finding of more than one step: the steps in order, the creation capturing the ids
    /// the later steps use (a member of its body, else the last segment of its `Location`), each step before the
    /// last expecting the status class it got, the last what the fixed API answers. Nil for one step.
    func sequence(for finding: FuzzFinding) -> SuiteDocument.Test? {
        let outcomes = writtenSequence(finding)
        guard outcomes.count > 1, let failing = outcomes.last else { return nil }
        let producer = outcomes.indices.dropLast().last {
            outcomes[$0].fuzzCase.purpose == .stateful(.create) && FuzzEngine.succeeded(outcomes[$0])
        }
        let captures = producer.map { captured(from: outcomes[$0], for: outcomes[($0 + 1)...]) } ?? []
        var written: [SuiteDocument.Step] = []
        for (index, outcome) in outcomes.enumerated() {
            var request = self.request(outcome.request)
            if let producer, index > producer { request = Self.replacing(captures, in: request) }
            var step = SuiteDocument.Step(source: outcome.fuzzCase.label, request: request)
            if index == outcomes.count - 1 {
                step.expect.status = Self.expectedStatus(finding.check, seen: failing.response?.status)
                if finding.check == .unsupportedMethod {
                    step.expect.headers = [
                        (name: "Allow", check: .object(JSONObject([(key: "exists", value: .bool(true))])))
                    ]
                }
            } else if let status = outcome.response?.status {
                step.expect.status = [(200..<300).contains(status) ? .string("2xx") : .integer(Int64(status))]
            }
            if index == producer { step.captures = captures.map { (name: $0.name, query: $0.query) } }
            written.append(step)
        }
        var test = SuiteDocument.Test(
            name: "\(finding.check.rawValue): \(finding.signature)", request: written[0].request)
        test.expect = written[0].expect
        test.captures = written[0].captures
        test.laterSteps = Array(written.dropFirst())
        return test
    }

    /// A capture of the creation's response for each value a later step's path takes from it: the body's member
    /// of that value (`created_id` for the first, `created_<member>` for others), else the last segment of
    /// `Location`; `text` is the value as written in a path.
    private func captured(
        from create: CaseOutcome, for later: ArraySlice<CaseOutcome>
    ) -> [(name: String, query: JSONValue, text: String)] {
        guard let response = create.response else { return [] }
        let body = try? JSONParser.parse(response.body)
        var captures: [(name: String, query: JSONValue, text: String)] = []
        for outcome in later {
            for parameter in outcome.fuzzCase.parameters where parameter.location == .path {
                guard let value = parameter.value else { continue }
                let text = ParameterText.primitive(value)
                guard !text.isEmpty, !captures.contains(where: { $0.text == text }) else { continue }
                let name = captures.isEmpty ? "created_id" : "created_\(captures.count + 1)"
                if case .object(let object)? = body,
                    let member = object.first(where: {
                        ParameterText.primitive($0.value) == text
                            && $0.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                            && !$0.value.isContainer
                    })
                {
                    captures.append(
                        (
                            name: captures.isEmpty ? "created_id" : "created_\(member.key)",
                            query: .object(JSONObject([(key: "jsonpath", value: .string("$.\(member.key)"))])),
                            text: text
                        ))
                } else if let location = response.header("Location"),
                    let segment = location.split(separator: "?").first?.split(separator: "/").last,
                    String(segment).removingPercentEncodingLeniently == text
                {
                    let filter = JSONValue.object(JSONObject([(key: "regex", value: .string("([^/?#]+)(?:[?#].*)?$"))]))
                    captures.append(
                        (
                            name: name,
                            query: .object(
                                JSONObject([
                                    (key: "header", value: .string("Location")),
                                    (key: "filters", value: .array([filter])),
                                ])),
                            text: text
                        ))
                }
            }
        }
        return captures
    }

    /// `request` with each captured value's text in its path replaced by the capture.
    private static func replacing(
        _ captures: [(name: String, query: JSONValue, text: String)], in request: SuiteDocument.Request
    ) -> SuiteDocument.Request {
        guard !captures.isEmpty else { return request }
        var written = request
        let path = written.url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var segments = path[0].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for capture in captures {
            let encoded = PercentText.encode(capture.text, keeping: "")
            for index in segments.indices where segments[index] == encoded {
                segments[index] = "{{ \(capture.name) }}"
            }
        }
        written.url = segments.joined(separator: "/") + (path.count > 1 ? "?" + path[1] : "")
        return written
    }
}

extension JSONValue {
    /// Whether the value is an object or an array.
    fileprivate var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
