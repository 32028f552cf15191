import APITestSuite
import Testing

@testable import APITestRunner

/// What a suite's runtime derives once for all its tests.
@Suite struct SuiteRuntimeTests {
    func runtime(_ yaml: String) throws -> SuiteRuntime {
        SuiteRuntime(suite: try SuiteLoader(environment: [:]).load(source: yaml, file: "/r/s.yaml"), userAgent: "t")
    }

    @Test func testsGetFreshBuiltInsWhenAStepOrADefaultUsesThem() throws {
        let none = try runtime(
            """
            baseURL: "http://h/{{ now.unix }}/"
            tests: [{name: t, request: {url: x}}]
            """)
        #expect(!none.usesBuiltins, "the base URL keeps the run's start values; the tests need no fresh ones")
        #expect(none.context.contains("now.unix"))
        let step = try runtime(#"tests: [{name: t, request: {url: "http://h/{{ random.hex }}"}}]"#)
        #expect(step.usesBuiltins)
        let header = try runtime(
            """
            defaults: {headers: {X-Request-ID: "{{ random.uuid }}"}}
            tests: [{name: t, request: {url: "http://h/x"}}]
            """)
        #expect(header.usesBuiltins, "a default header is rendered per test, so its built-ins are fresh per test")
        let until = try runtime(
            """
            defaults: {retry: {attempts: 3, interval: 1ms, until: {json: {$.at: "{{ now.date }}"}}}}
            tests: [{name: t, request: {url: "http://h/x"}}]
            """)
        #expect(until.usesBuiltins)
    }
}
