import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// Issue 37: a loader that defers unset environment variables to the selection keeps each use with the part of
/// the suite that needs it (``UnsetEnvironment``) instead of failing the file; without deferring nothing changes.
@Suite("Unset environment variables kept for the selection")
struct UnsetEnvironmentTests {
    /// Loads `yaml` deferring unset environment variables.
    func deferred(_ yaml: String, environment: [String: String] = [:]) throws(SuiteLoadError) -> Suite {
        var loader = SuiteLoader(environment: environment)
        loader.defersUnsetEnvironment = true
        return try loader.load(source: yaml, file: "suites/test.yaml")
    }

    static let suite = """
        variables:
          a: "{{ env.A }}"
          b: "x{{ a }}"
          c: plain
          a2: "{{ env.SET }}"
        tests:
          - {name: uses b, request: {url: "http://h/{{ b }}"}}
          - {name: uses nothing, request: {url: "http://h/{{ c }}/{{ a2 }}"}}
          - {name: uses B, request: {url: "http://h/{{ env.B }}"}}
        """

    @Test func eachUseIsKeptWithThePartThatNeedsIt() throws {
        let suite = try deferred(Self.suite, environment: ["SET": "1"])
        let unset = suite.unsetEnvironment
        #expect(unset.suiteLevel.isEmpty)
        #expect(unset.variables == [0, 1])
        #expect(
            unset.tests[0]?.map(DiagnosticRenderer.oneLine) == [
                "suites/test.yaml:2:7: error: environment variable 'A' is not set"
            ])
        #expect(unset.tests[1] == nil)
        #expect(unset.errors(forTests: [1]).isEmpty)
        #expect(unset.errors(forTests: [2]).map(\.location.line) == [9])
        #expect(unset.errors(forTests: [2, 0, 1]).map(\.location.line) == [2, 9])
        #expect(unset.errors(forTests: []).isEmpty)
        // The context leaves the variables that need an unset variable out, and keeps the rest.
        let context = try suite.makeContext()
        #expect(context["c"] == .string("plain"))
        #expect(context["a2"] == .string("1"))
        #expect(context["a"] == nil && context["b"] == nil)
    }

    /// Without deferring (validate, export, the library's default) the uses fail the file as before.
    @Test func withoutDeferringTheyAreErrors() {
        #expect(
            errors(Self.suite, environment: ["SET": "1"]) == [
                "suites/test.yaml:2:7: error: environment variable 'A' is not set",
                "suites/test.yaml:9:45: error: environment variable 'B' is not set",
            ])
    }

    /// A file with other errors reports its unset variables with them, as without deferring.
    @Test func aFileThatFailsAnywayReportsThemAll() {
        do {
            _ = try deferred(Self.suite + "\n  - {name: bad, request: {url: \"http://h/\"}, expect: {stauts: 200}}")
            Issue.record("the suite loaded")
        } catch {
            #expect(error.diagnostics.map(\.location.line) == [2, 5, 9, 10])
        }
    }

    /// The base URL, defaults, setup and teardown (and the variables they use) are needed by every test.
    @Test func suiteLevelPartsAndRedefinitions() throws {
        let suite = try deferred(
            """
            baseURL: "http://h/{{ v }}/"
            variables:
              v: "{{ env.V }}"
              w: fine
            defaults: {headers: {X-A: "{{ env.D }}"}}
            setup:
              - request: {url: "/{{ env.S }}"}
            tests:
              - {name: t, request: {url: "x/{{ w }}"}}
            """)
        let unset = suite.unsetEnvironment
        #expect(unset.variables == [0])
        #expect(unset.suiteLevel.map(\.location.line).sorted() == [3, 5, 7])
        #expect(unset.tests.isEmpty)
        #expect(unset.errors(forTests: [0]).map(\.location.line) == [3, 5, 7])
        #expect(try suite.makeContext()["w"] == .string("fine"))
    }

    /// A suite whose environment is all set keeps nothing, deferring or not.
    @Test func nothingUnsetNothingKept() throws {
        #expect(try deferred(Self.suite, environment: ["A": "1", "B": "2", "SET": "3"]).unsetEnvironment.isEmpty)
    }
}
