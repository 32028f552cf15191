import APITestHTTP
import APITestSecrets
import APITestSuite
import APITestSupport
import Foundation
import Testing

@testable import APITestChecks

/// A step without `status:` accepts 2xx only: 200 and 299 pass, 199 and 300 (a redirect not followed) fail.
@Suite struct DefaultStatusTests {
    static let location = SourceLocation(file: "s.yaml", line: 3, column: 5)

    @Test func expectationsWithoutAStatusAcceptTwoHundredsOnly() {
        let expect = Expectations()
        #expect(expect.acceptsStatus(200))
        #expect(expect.acceptsStatus(299))
        #expect(!expect.acceptsStatus(199))
        #expect(!expect.acceptsStatus(300))
        #expect(!expect.acceptsStatus(304))
    }

    @Test(arguments: [(200, true), (204, true), (299, true), (199, false), (300, false), (301, false), (404, false)])
    func aStepWithoutStatusFailsOutsideTwoHundreds(_ status: Int, _ passes: Bool) {
        let response = HTTPResponse(
            statusCode: status, httpVersion: "1.1", headers: [:], body: Data(), effectiveURL: "http://127.0.0.1/x")
        var body = ResponseBody(response)
        let result = ResponseChecker().check(
            Expectations(), stepLocation: Self.location, body: &body, context: TemplateContext(),
            masker: SecretMasker(secrets: []))
        #expect(result.failures.isEmpty == passes)
        #expect(result.checks.map(\.passed) == [passes])
        if !passes {
            #expect(
                result.failures.map(\.message) == [
                    "expected a 2xx status (no status expectation given), got \(status)"
                ])
        }
    }
}
