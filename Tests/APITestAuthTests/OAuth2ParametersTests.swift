import APITestSupport
import Testing

@testable import APITestAuth

/// The OAuth2 parameters are one model over the type of their fields (`OAuth2Parameters`): a suite's templates, a
/// rendered grant, the text an importer writes. Rendering is one `map`, the token URL first.
@Suite struct OAuth2ParametersTests {
    @Test func mapTransformsTheTokenURLFirstThenTheFieldsThatAreSetAndKeepsTheRest() throws {
        let written = OAuth2Parameters(
            flow: .password, tokenURL: "token", clientID: "app", scope: "read", username: "ann", password: "pw",
            clientAuthentication: .body)
        var order: [String] = []
        let grant: OAuth2Grant = written.map(tokenURL: { "https://idp/" + $0 }) { field in
            order.append(field)
            return field.uppercased()
        }
        #expect(order == ["app", "read", "ann", "pw"])
        #expect(grant.tokenURL == "https://idp/token" && grant.clientID == "APP" && grant.clientSecret == nil)
        #expect(grant.flow == .password && grant.clientAuthentication == .body)
        #expect(grant.secrets == ["PW"])
        #expect(written.fields == ["token", "app", "read", "ann", "pw"])
    }
}
