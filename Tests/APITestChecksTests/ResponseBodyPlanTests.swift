import APITestHTTP
import APITestJSON
import APITestSuite
import Testing

@testable import APITestChecks

/// Which steps keep their response body in memory and which only count and hash it as it streams.
@Suite struct ResponseBodyPlanTests {
    func step(_ yaml: String) throws -> Step {
        let suite = try SuiteLoader(environment: [:]).load(
            source: "tests:\n  - name: t\n    request: {url: http://h/}\n" + yaml, file: "/r/s.yaml")
        return try #require(suite.tests.first?.steps.first)
    }

    @Test func stepsThatReadTheBodyKeepIt() throws {
        for expect in [
            "    expect: {body: {contains: a}}", "    expect: {json: {$.a: 1}}", "    expect: {xml: {/a: b}}",
            "    expect: {assert: [{regex: 'a(b)', equals: b}]}", "    expect: {image: {format: png}}",
            "    capture: {a: {jsonpath: $.a}}", "    capture: {a: {regex: 'x(y)'}}",
        ] {
            #expect(
                ResponseBodyPlan.handling(for: try step(expect), until: nil, previewBytes: 10) == .keep, "\(expect)")
        }
    }

    @Test func stepsThatCheckOnlySizeAndDigestsStreamIt() throws {
        let sizeOnly = try step("    expect: {status: 200, bodySize: 5, headers: {X-A: b}}")
        #expect(ResponseBodyPlan.handling(for: sizeOnly, until: nil, previewBytes: 10) == .digest([], prefix: 10))
        // The digests of "abc" (a digest of the wrong form is a load error).
        let sha256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let md5 = "900150983cd24fb0d6963f7d28e17f72"
        let digests = try step("    expect: {sha256: \(sha256), md5: \(md5)}\n    capture: {h: {header: Location}}")
        #expect(
            ResponseBodyPlan.handling(for: digests, until: nil, previewBytes: 7) == .digest([.sha256, .md5], prefix: 7))
    }

    @Test func aSuiteWithAContractKeepsEveryBody() throws {
        let sizeOnly = try step("    expect: {status: 200, bodySize: 5}")
        #expect(
            ResponseBodyPlan.handling(for: sizeOnly, until: nil, previewBytes: 10, checkedByContract: true) == .keep)
        #expect(
            ResponseBodyPlan.handling(for: sizeOnly, until: nil, previewBytes: 10, checkedByContract: false)
                == .digest([], prefix: 10))
    }

    @Test func aRetryUntilThatReadsTheBodyKeepsIt() throws {
        let plain = try step("    expect: {status: 200}")
        let until = Expectations(
            assertions: [
                Assertion(
                    location: plain.location, query: .jsonpath(try JSONPath("$.state")), predicate: .equals,
                    argument: .null)
            ])
        #expect(ResponseBodyPlan.handling(for: plain, until: until, previewBytes: 10) == .keep)
    }
}
