import APITestHTTP
import Foundation
import Testing

@testable import APITestRunner

/// When the executor renews a token (moved from `OAuth2TokenStoreTests` with the token store's move to
/// `APITestAuth`: the decision is the executor's).
@Suite struct TokenRenewalTests {
    @Test func onlyA401WithInvalidTokenAsksForARenewal() {
        func response(_ status: Int, _ challenge: String?) -> HTTPResponse {
            var headers = HTTPHeaders()
            if let challenge { headers.add(name: "WWW-Authenticate", value: challenge) }
            return HTTPResponse(
                statusCode: status, httpVersion: "1.1", headers: headers, body: Data(), effectiveURL: "https://a/")
        }
        #expect(TestExecutor.rejectsToken(response(401, #"Bearer error="invalid_token""#)))
        #expect(!TestExecutor.rejectsToken(response(401, #"Bearer realm="a""#)))
        #expect(!TestExecutor.rejectsToken(response(401, nil)))
        #expect(!TestExecutor.rejectsToken(response(403, #"Bearer error="invalid_token""#)))
        #expect(!TestExecutor.rejectsToken(response(401, #"Bearer error="insufficient_scope""#)))
    }
}
