import APITestSupport
import Testing

@testable import APITestSuite

/// `Step` keeps its fields in one copy-on-write box: a copy must behave as an independent value (mutating it leaves
/// the original as it was), and equality and hashing must be over the fields, not the box.
@Suite struct StepStorageTests {
    static let yaml = """
        baseURL: http://h/
        tests:
          - name: t
            request: {url: "items/{{ id }}", headers: {X-A: "{{ a }}"}, json: {k: "{{ b }}"}}
            expect: {status: 200, json: {$.name: "{{ c }}"}}
            capture: {token: {jsonpath: $.token}}
            retry: {attempts: 2, until: {json: {$.done: "{{ d }}"}}}
        """

    static func step() throws -> Step {
        let suite = try loadSuite(yaml, overrides: ["id": "1", "a": "x", "b": "y", "c": "z", "d": "true"])
        return try #require(suite.tests.first?.steps.first)
    }

    // MARK: - Copy on write

    @Test func mutatingACopyLeavesTheOriginal() throws {
        let original = try Self.step()
        var copy = original
        copy.request.url = Template(literal: "other", location: copy.request.url.location)
        copy.request.headers.removeAll()
        copy.expect.assertions.removeAll()
        copy.captures.append(copy.captures[0])
        copy.retry = nil
        copy.location.line += 10

        #expect(original.request.url.source == "items/{{ id }}")
        #expect(original.request.headers.map(\.name) == ["X-A"])
        #expect(original.expect.assertions.count == 1)
        #expect(original.captures.map(\.name) == ["token"])
        #expect(original.retry?.attempts == 2)
        #expect(original.location.line == 3)
        #expect(original == (try Self.step()))

        #expect(copy.request.url.source == "other")
        #expect(copy.request.headers.isEmpty)
        #expect(copy.expect.assertions.isEmpty)
        #expect(copy.captures.map(\.name) == ["token", "token"])
        #expect(copy.retry == nil)
        #expect(copy.location.line == 13)
        #expect(copy != original)
    }

    @Test func mutatingTheOriginalLeavesACopy() throws {
        var original = try Self.step()
        let copy = original
        original.expect.status = nil
        original.request.method = "POST"
        #expect(copy.expect.status?.description == "200")
        #expect(copy.request.method == "GET")
        #expect(original.expect.status == nil)
        #expect(original.request.method == "POST")
    }

    @Test func stepsInAnArrayAreIndependent() throws {
        var steps = Array(repeating: try Self.step(), count: 3)
        steps[1].request.url.source = "changed"
        #expect(steps.map(\.request.url.source) == ["items/{{ id }}", "changed", "items/{{ id }}"])
    }

    @Test func aUniqueStepMutatesInPlace() throws {
        var step = try Self.step()
        for _ in 0..<100 { step.request.headers.append(step.request.headers[0]) }
        #expect(step.request.headers.count == 101)
        step.location = SourceLocation(file: "x.yaml", line: 1, column: 2)
        #expect(step.location == SourceLocation(file: "x.yaml", line: 1, column: 2))
    }

    // MARK: - Equality and hashing

    @Test func equalityAndHashAreOverTheFields() throws {
        let first = try Self.step()
        let second = try Self.step() // Another load: equal fields in another box.
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)

        let rebuilt = Step(
            location: first.location, request: first.request, expect: first.expect, captures: first.captures,
            retry: first.retry)
        #expect(rebuilt == first)
        #expect(rebuilt.hashValue == first.hashValue)

        let changes: [(inout Step) -> Void] = [
            { $0.location.column += 1 },
            { $0.request.method = "PUT" },
            { $0.expect.status = nil },
            { $0.captures.removeAll() },
            { $0.retry?.attempts = 3 },
        ]
        for index in changes.indices {
            var changed = first
            changes[index](&changed)
            #expect(changed != first, "change \(index)")
            #expect(Set([first, changed]).count == 2, "change \(index)")
        }
    }

    // MARK: - Templates

    @Test func templatesInOrder() throws {
        let step = try Self.step()
        let expected = ["items/{{ id }}", "{{ a }}", "{{ b }}", "{{ c }}", "{{ d }}"]
        #expect(step.templates.map(\.source) == expected)
        var visited: [String] = []
        step.forEachTemplate { visited.append($0.source) }
        #expect(visited == expected)
    }
}
