import APITestSupport
import Testing

@testable import APITestSuite

/// The scope check passes by a step the parser saw no placeholder in (`Step.hasOnlyLiteralTemplates`, issue 38's
/// loading target: walking every template of 10,000 literal steps cost 3.3k instructions a test). The mark must be
/// set only where it holds and dropped when the step changes, and every placeholder must still be checked.
@Suite("Literal steps in the scope check")
struct LiteralStepScopeTests {
    /// One test whose single step has `part` (a YAML fragment of the test's map) beside a literal request.
    static func step(_ part: String, overrides: [String: String] = [:]) throws -> Step {
        let yaml = """
            baseURL: http://h/
            tests:
              - name: t
            \(part)
            """
        let suite = try loadSuite(yaml, overrides: overrides)
        return try #require(suite.tests.first?.steps.first)
    }

    // MARK: - The mark

    @Test func aStepWithoutPlaceholdersIsMarked() throws {
        let step = try Self.step(
            """
                request: {url: "items/1.json", headers: {X-N: "1"}, json: {a: [1, "x"]}}
                expect: {status: 200, json: {$.name: alice}}
                retry: {attempts: 2, until: {json: {$.done: true}}}
                capture: {token: {jsonpath: $.token}}
            """)
        #expect(step.hasOnlyLiteralTemplates)
    }

    /// A placeholder in any part the mark vouches for leaves the step unmarked.
    @Test(arguments: [
        "    request: {url: \"items/{{ v }}.json\"}",
        "    request: {url: items, headers: {X-N: \"{{ v }}\"}}",
        "    request: {url: items, query: {q: \"{{ v }}\"}}",
        "    request: {url: items, json: {a: [1, \"{{ v }}\"]}}",
        "    request: {url: items, body: \"x{{ v }}\"}",
        "    request: {url: items}\n    expect: {json: {$.name: \"{{ v }}\"}}",
        "    request: {url: items}\n    expect: {headers: {X-A: \"{{ v }}\"}}",
        "    request: {url: items}\n    retry: {attempts: 2, until: {json: {$.done: \"{{ v }}\"}}}",
        "    request: {url: items, auth: {bearer: \"{{ v }}\"}}",
    ])
    func aPlaceholderAnywhereLeavesTheStepUnmarked(_ part: String) throws {
        let step = try Self.step(part, overrides: ["v": "1"])
        #expect(!step.hasOnlyLiteralTemplates, "\(part)")
    }

    @Test func aStepBuiltElsewhereIsNotMarked() {
        let at = SourceLocation(file: "f", line: 1, column: 1)
        let step = Step(
            location: at, request: RequestSpec(url: Template(literal: "http://h/", location: at), location: at),
            expect: Expectations(), captures: [])
        #expect(!step.hasOnlyLiteralTemplates)
    }

    /// Changing a part the mark vouches for drops it (the new value may hold a placeholder); the original keeps
    /// its own mark, and a name, condition or loop (`control`, checked apart) leaves it.
    @Test func changingTheStepDropsTheMark() throws {
        let original = try Self.step("    request: {url: items}\n    expect: {status: 200}")
        #expect(original.hasOnlyLiteralTemplates)
        let placeholder = try Template(parsing: "{{ v }}", location: original.location)

        var url = original
        url.request.url = placeholder
        #expect(!url.hasOnlyLiteralTemplates)
        #expect(original.hasOnlyLiteralTemplates)

        var expect = original
        expect.expect.assertions.removeAll()
        #expect(!expect.hasOnlyLiteralTemplates)

        var retry = original
        retry.retry = nil
        #expect(!retry.hasOnlyLiteralTemplates)

        var captures = original
        captures.captures = []
        #expect(!captures.hasOnlyLiteralTemplates)

        var websocket = original
        websocket.websocket = nil
        #expect(!websocket.hasOnlyLiteralTemplates)

        var grpc = original
        grpc.grpc = nil
        #expect(!grpc.hasOnlyLiteralTemplates)

        var named = original
        named.control = StepControl(name: "n")
        #expect(named.hasOnlyLiteralTemplates)
        #expect(named == original.with { $0.control = StepControl(name: "n") })
    }

    // MARK: - Placeholders are still checked

    /// Literal steps before and after one that uses an undefined name: the one error is reported where it is, for
    /// each part a step can hold it in.
    @Test(arguments: [
        ("request: {url: \"items/{{ nope }}\"}", "4:27"),
        ("request: {url: items, headers: {X-N: \"{{ nope }}\"}}", "4:43"),
        ("request: {url: items}\n    expect: {json: {$.n: \"{{ nope }}\"}}", "5:27"),
        ("request: {url: items}\n    retry: {attempts: 2, until: {json: {$.d: \"{{ nope }}\"}}}", "5:47"),
    ])
    func anUndefinedNameAmongLiteralStepsIsReported(_ part: String, _ at: String) {
        let literal = "    request: {url: \"items/1.json\", headers: {X-N: \"1\"}}\n    expect: {status: 200}\n"
        let yaml = """
            baseURL: http://h/
            tests:
              - name: a
                \(part)
              - name: b
            \(literal)  - name: c
            \(literal)
            """
        let found = errors(yaml)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("suites/test.yaml:\(at): error: undefined variable 'nope'") == true, "\(found)")
    }

    /// A test whose steps are all literal is still checked for its own `when` and for its steps' names, conditions
    /// and loops.
    @Test func conditionsAndLoopsBesideLiteralStepsAreChecked() {
        let yaml = """
            baseURL: http://h/
            tests:
              - name: a
                when: nope == 1
                request: {url: items}
              - name: b
                steps:
                  - name: named
                    request: {url: items}
                  - when: other == 2
                    request: {url: items}
                  - forEach: {items: "{{ list }}", as: id}
                    request: {url: items}
            """
        let found = errors(yaml)
        #expect(found.count == 3, "\(found)")
        #expect(found.contains { $0.hasPrefix("suites/test.yaml:4:11: error: undefined variable 'nope'") }, "\(found)")
        #expect(
            found.contains { $0.hasPrefix("suites/test.yaml:10:15: error: undefined variable 'other'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("suites/test.yaml:12:27: error: undefined variable 'list'") }, "\(found)")
    }

    /// `hasControl` and `isGRPCCall` say what `control != nil` and `grpc != nil` say.
    @Test func presenceChecksMatchTheFields() throws {
        var step = try Self.step("    request: {url: items}")
        #expect(!step.hasControl && step.control == nil)
        #expect(!step.isGRPCCall && step.grpc == nil)
        step.control = StepControl(name: "n")
        #expect(step.hasControl)
        step.control = nil
        #expect(!step.hasControl)
        let suite = try loadSuite(
            """
            tests:
              - name: t
                steps:
                  - name: first
                    request: {url: "http://h/"}
            """)
        #expect(suite.tests[0].steps[0].hasControl && suite.tests[0].steps[0].control?.name == "first")
    }

    /// A literal step's captures are still visible to the steps after it.
    @Test func aLiteralStepsCapturesAreVisibleLater() {
        let yaml = """
            baseURL: http://h/
            tests:
              - name: a
                steps:
                  - request: {url: items}
                    capture: {token: {jsonpath: $.token}}
                  - request: {url: "items/{{ token }}"}
                  - request: {url: "items/{{ later }}"}
                    capture: {later: {jsonpath: $.x}}
            """
        #expect(
            errors(yaml) == [
                "suites/test.yaml:8:31: error: undefined variable 'later' ('later' is captured by this step, "
                    + "from its response; only later steps can use it)"
            ])
    }
}

extension Step {
    /// A copy changed by `change`.
    fileprivate func with(_ change: (inout Step) -> Void) -> Step {
        var copy = self
        change(&copy)
        return copy
    }
}
