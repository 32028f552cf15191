import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `import postman -e env.json`: variables whose names say they hold a credential (the rule every importer uses,
/// `CredentialNames`) are read from the environment, as those Postman marks secret are, and a note lists them.
struct PostmanCredentialTests {
    static let collection = """
        {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [{"name": "login", "request": {"method": "POST", "url": "{{baseUrl}}/login",
           "header": [{"key": "X-Api-Token", "value": "{{apiToken}}"}],
           "body": {"mode": "urlencoded", "urlencoded": [{"key": "password", "value": "{{password}}"},
             {"key": "user", "value": "{{user}}"}, {"key": "k", "value": "{{client_secret}}"},
             {"key": "pk", "value": "{{Private Key}}"}]}}}]}
        """

    static let environment = """
        {"name": "staging", "values": [
          {"key": "baseUrl", "value": "http://127.0.0.1:1", "enabled": true},
          {"key": "user", "value": "ann", "enabled": true},
          {"key": "password", "value": "pw1", "enabled": true},
          {"key": "apiToken", "value": "tok-123", "enabled": true},
          {"key": "client_secret", "value": "cs-456", "enabled": true},
          {"key": "Private Key", "value": "pk-789", "enabled": true}]}
        """

    @Test func credentialNamesAreReadFromTheEnvironment() throws {
        let decoded = try PostmanCollectionDecoder(file: "c.json").decode(Array(Self.collection.utf8))
        let environment = try PostmanEnvironment.decode(Array(Self.environment.utf8), file: "env.json")
        let suite = PostmanImporter(collection: decoded, environment: environment, files: ["c.json", "env.json"])
            .suite()
        let variables = Dictionary(uniqueKeysWithValues: suite.variables.map { ($0.name, $0.value) })
        #expect(variables["password"] == "{{ env.PASSWORD }}")
        #expect(variables["apiToken"] == "{{ env.API_TOKEN }}")
        #expect(variables["client_secret"] == "{{ env.CLIENT_SECRET }}")
        #expect(variables["Private_Key"] == "{{ env.PRIVATE_KEY }}")
        #expect(variables["user"] == "ann")
        #expect(variables["baseUrl"] == "http://127.0.0.1:1")
        let (text, loaded) = try SuiteDocumentRendererTests.load(
            suite,
            environment: ["PASSWORD": "p", "API_TOKEN": "t", "CLIENT_SECRET": "c", "PRIVATE_KEY": "k"])
        for value in ["pw1", "tok-123", "cs-456", "pk-789"] {
            #expect(!text.contains(value), "\(value) is written into the suite:\n\(text)")
        }
        #expect(loaded.variables.count == 6)
        #expect(
            suite.notes.map(\.rendered).contains(
                "variables: credentials (by their names, or Postman's secret type) are read from the environment, "
                    + "not written into the suite: password from PASSWORD, apiToken from API_TOKEN, client_secret "
                    + "from CLIENT_SECRET, Private Key from PRIVATE_KEY; set them before apitest validate or run"),
            "\(suite.notes.map(\.rendered))")
        #expect(Set(suite.environmentVariables) == ["PASSWORD", "API_TOKEN", "CLIENT_SECRET", "PRIVATE_KEY"])
    }

    @Test(arguments: [
        ("password", true), ("apiToken", true), ("api_key", true), ("apiKey", true), ("X-API-Key", true),
        ("client_secret", true), ("Authorization", true), ("credentials", true), ("private key", true),
        ("privateKey", true), ("key", true), ("baseUrl", false), ("user", false), ("userName", false),
        ("hKey", false), ("page", false),
    ])
    func oneRuleForEveryImporter(name: String, isCredential: Bool) {
        #expect(CredentialNames.isCredential(name) == isCredential)
        #expect(HARSecrets.isCredential(name) == isCredential)
    }
}
