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

    /// `templateUse(of:)` passes by the steps the parser found without placeholders; it must find what a walk over
    /// every template of every step finds, for steps with and without placeholders, loops, groups and retries.
    @Test func theTemplatesInUseAreThoseOfEveryStep() throws {
        let yamls = [
            "tests: [{name: t, request: {url: http://h/x}, expect: {status: 200, json: {$.a: b}}}]",
            #"tests: [{name: t, request: {url: "http://h/{{ id }}"}}, {name: u, request: {url: http://h/y}}]"#,
            #"tests: [{name: t, steps: [{request: {url: http://h/x}, forEach: {items: "{{ items }}", as: it}}]}]"#,
            #"tests: [{name: t, steps: [{name: "s {{ n }}", request: {url: http://h/x}}]}]"#,
            #"tests: [{name: t, steps: [{request: {url: http://h/x}, when: "{{ flag }}"}]}]"#,
            #"tests: [{name: t, request: {url: http://h/x, headers: {A: "{{ token }}"}}}]"#,
            #"tests: [{name: t, request: {url: http://h/x}, expect: {json: {$.a: "{{ upper(v) }}"}}}]"#,
            #"""
            tests: [{name: t, request: {url: http://h/x}, retry: {attempts: 2, interval: 1ms,
              until: {json: {$.a: "{{ want }}"}}}}]
            """#,
            #"""
            setup: [{request: {url: "http://h/{{ s }}"}}]
            teardown: [{request: {url: http://h/t}}]
            tests: [{name: t, request: {url: http://h/x}}]
            """#,
        ]
        for yaml in yamls {
            let variables = "variables: {id: 1, items: [1], n: 1, flag: true, token: x, v: y, want: z, s: q}\n"
            let suite = try SuiteLoader(environment: [:]).load(source: variables + yaml, file: "/r/s.yaml")
            var names = Set<String>()
            var calls = false
            suite.forEachStep { step in
                step.forEachTemplate { template in
                    guard !template.isLiteral else { return }
                    names.formUnion(template.referencedNames)
                    calls = calls || template.callsFunction
                }
            }
            let found = SuiteRuntime.templateUse(of: suite)
            #expect(found.names == names, "\(yaml)")
            #expect(found.callsFunctions == calls, "\(yaml)")
        }
    }
}
