import APITestJSON
import APITestSupport
import Testing

@testable import APITestSuite

/// A suite's model is held whole for the run, and a suite can have 100,000 tests (issue 38: peak RSS under 50 MiB at
/// 10,000 tests, under 200 MiB at 100,000): what most tests leave out is kept out of line. A regular expression is
/// one reference (its pattern and compiled form boxed), a query does not carry an event-stream query inline, and a
/// test's `when` is boxed. The values read, compare and hash as before.
@Suite struct ModelFootprintTests {
    let here = SourceLocation(file: "f.yaml", line: 3, column: 7)

    // MARK: - Sizes

    @Test func theModelsPerTestValuesStaySmall() {
        // Before: RegularExpression 88 bytes (a LinearRegex inline), Query 96 and Assertion 241 (both holding one),
        // TestCase 161 (a Condition? of 56 bytes inline).
        #expect(MemoryLayout<RegularExpression>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<Query>.size <= 40)
        #expect(MemoryLayout<Assertion>.size <= 112)
        #expect(MemoryLayout<TestCase>.size <= 120)
        // Before: 88 bytes (five boxes of rare checks).
        #expect(MemoryLayout<Expectations>.size <= 56)
        // Before: 184 bytes (its one-byte fields between references, each padded to a word).
        #expect(MemoryLayout<RequestSpec>.size <= 171)
    }

    @Test func theRareChecksShareABoxAndCompareByValue() throws {
        let plain = Expectations()
        var changed = plain
        let schema = try #require(
            try loadSuite(
                """
                baseURL: http://localhost
                tests:
                  - name: t
                    request: {url: /a}
                    expect: {schema: {type: object}}
                """
            ).tests[0].steps[0].expect.schema)
        changed.schema = schema
        #expect(changed.schema == schema)
        #expect(changed.events == nil && changed.graphql == nil && changed.grpc == nil && changed.snapshot == nil)
        #expect(changed != plain)
        var copy = changed
        copy.schema = nil
        // A copy's change leaves the original's box alone, and no rare check left is the same as none set.
        #expect(changed.schema == schema)
        #expect(copy == plain)
        #expect(Set([copy, plain]).count == 1)
        #expect(Expectations(schema: schema) == changed)
        #expect(Expectations(schema: nil) == plain)
    }

    // MARK: - Behaviour

    @Test func aBoxedRegularExpressionMatchesComparesAndHashesByItsPattern() throws {
        let digits = try RegularExpression("([0-9]+)-(?<tail>[a-z]+)")
        #expect(digits.pattern == "([0-9]+)-(?<tail>[a-z]+)")
        #expect(digits.description == digits.pattern)
        #expect(digits.regex.pattern == digits.pattern)
        #expect(digits.numberOfCaptureGroups == 2)
        #expect(digits.firstMatch(in: "id 42-abc"))
        #expect(!digits.firstMatch(in: "none"))
        #expect(digits.firstMatch(in: "id 42-abc", group: 1) == "42")
        #expect(try digits.replacingMatches(in: "7-x 8-y", with: "${tail}$1", limit: 100) == "x7 y8")
        let again = try RegularExpression("([0-9]+)-(?<tail>[a-z]+)")
        #expect(again == digits)
        #expect(Set([digits, again]).count == 1)
        #expect(try RegularExpression("a+") != digits)
        #expect(throws: LinearRegex.SyntaxError.self) { try RegularExpression("(unclosed") }
    }

    @Test func anEventStreamQueryReadsAsBefore() throws {
        let path = try JSONPath("$.id")
        let queries: [Query] = [
            .stream(.count), .stream(.field(.data)), .stream(.captured(.last, field: nil, path: path)),
            .jsonpath(path), .regex(try RegularExpression("x(y)"), group: 1), .status,
        ]
        for (index, query) in queries.enumerated() {
            for (other, second) in queries.enumerated() { #expect((query == second) == (index == other)) }
        }
        #expect(Set(queries).count == queries.count)
        guard case .stream(.captured(.last, field: nil, let kept)) = queries[2] else {
            Issue.record("\(queries[2])")
            return
        }
        #expect(kept == path)
        #expect(Query.stream(.count).description == StreamQuery.count.description)
    }

    @Test func aTestsConditionIsKeptAndCompared() throws {
        let suite = try loadSuite(
            """
            baseURL: http://localhost
            tests:
              - name: guarded
                when: "{{ 1 > 0 }}"
                request: {url: "/a"}
              - name: plain
                request: {url: "/b"}
            """)
        let guarded = suite.tests[0]
        #expect(guarded.when?.source == "{{ 1 > 0 }}")
        #expect(suite.tests[1].when == nil)
        var changed = guarded
        changed.when = nil
        #expect(changed.when == nil)
        #expect(changed != guarded)
        changed.when = guarded.when
        #expect(changed == guarded)
        #expect(Set([changed, guarded]).count == 1)
    }
}
