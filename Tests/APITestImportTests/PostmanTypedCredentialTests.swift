import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `import postman`: a secret typed into a collection's, folder's or request's own auth settings, or into a
/// credential header, is read from the environment like every credential of every importer, with a note naming the
/// environment variable; the suite never holds it.
struct PostmanTypedCredentialTests {
    /// A collection whose auth settings hold typed secrets at every level, and a header typed with a token.
    static func collection(_ auths: [(name: String, auth: String)]) -> String {
        let items = auths.map { item in
            """
            {"name": "\(item.name)", "request": {"method": "GET", "url": "http://127.0.0.1:1/\(item.name)",
              "auth": \(item.auth)}}
            """
        }
        return """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "basic", "basic": [{"key": "username", "value": "ann"},
               {"key": "password", "value": "collection-pw-1"}]},
             "item": [
               {"name": "inherits", "request": {"method": "GET", "url": "http://bob:url-pw-13@127.0.0.1:1/a",
                 "header": [{"key": "X-Api-Key", "value": "header-key-2"},
                   {"key": "Authorization-Extra", "value": "{{token}}"}]}},
               {"name": "folder", "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "folder-tok-3"}]},
                "item": [{"name": "in folder", "request": {"method": "GET", "url": "http://127.0.0.1:1/b"}}]},
               \(items.joined(separator: ",\n"))]}
            """
    }

    static let auths: [(name: String, auth: String)] = [
        (
            "apikey",
            #"{"type": "apikey", "apikey": [{"key": "key", "value": "X-Key"}, {"key": "value", "value": "apikey-4"}]}"#
        ),
        (
            "digest",
            #"{"type": "digest", "digest": [{"key": "username", "value": "u"}, {"key": "password", "value": "digest-5"}]}"#
        ),
        (
            "ntlm",
            #"{"type": "ntlm", "ntlm": [{"key": "username", "value": "u"}, {"key": "password", "value": "ntlm-6"}]}"#
        ),
        (
            "aws",
            #"{"type": "awsv4", "awsv4": [{"key": "accessKey", "value": "AKIA7"}, {"key": "secretKey", "value": "aws-secret-8"}, {"key": "sessionToken", "value": "aws-session-9"}, {"key": "region", "value": "eu-west-1"}, {"key": "service", "value": "s3"}]}"#
        ),
        (
            "oauth2",
            #"{"type": "oauth2", "oauth2": [{"key": "grant_type", "value": "password_credentials"}, {"key": "accessTokenUrl", "value": "http://127.0.0.1:1/token"}, {"key": "clientId", "value": "cid"}, {"key": "clientSecret", "value": "client-secret-10"}, {"key": "username", "value": "u"}, {"key": "password", "value": "oauth-pw-11"}]}"#
        ),
        (
            "stored",
            #"{"type": "oauth2", "oauth2": [{"key": "accessToken", "value": "stored-token-12"}]}"#
        ),
        (
            "variable",
            #"{"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}"}]}"#
        ),
    ]

    static let secrets = [
        "collection-pw-1", "header-key-2", "folder-tok-3", "apikey-4", "digest-5", "ntlm-6", "AKIA7", "aws-secret-8",
        "aws-session-9", "client-secret-10", "oauth-pw-11", "stored-token-12", "url-pw-13",
    ]

    @Test func typedSecretsAreReadFromTheEnvironment() throws {
        let text = Self.collection(Self.auths)
        let decoded = try PostmanCollectionDecoder(file: "c.json").decode(Array(text.utf8))
        let environment = try PostmanEnvironment.decode(
            Array(#"{"name": "e", "values": [{"key": "token", "value": "env-tok", "enabled": true}]}"#.utf8),
            file: "e.json")
        let suite = PostmanImporter(collection: decoded, environment: environment, files: ["c.json", "e.json"])
            .suite()
        let variables = suite.environmentVariables
        var values: [String: String] = [:]
        for name in variables { values[name] = "x" }
        let (written, loaded) = try SuiteDocumentRendererTests.load(suite, environment: values)
        for secret in Self.secrets {
            #expect(!written.contains(secret), "\(secret) is written into the suite:\n\(written)")
        }
        #expect(loaded.tests.count == 9)
        // One environment variable per typed secret (the collection's password once, though two requests use it),
        // none of them the one the secret variable `token` is read from.
        #expect(
            Set(variables) == [
                "BASIC_PASSWORD", "X_API_KEY", "TOKEN", "BEARER_TOKEN", "APIKEY_VALUE", "DIGEST_PASSWORD",
                "NTLM_PASSWORD", "AWSV4_ACCESS_KEY", "AWSV4_SECRET_KEY", "AWSV4_SESSION_TOKEN",
                "OAUTH2_CLIENT_SECRET", "OAUTH2_PASSWORD", "OAUTH2_ACCESS_TOKEN", "URL_PASSWORD",
            ], "\(variables)")
        let note = try #require(suite.notes.first { $0.location == "auth" }).rendered
        #expect(note.contains("basic auth password from BASIC_PASSWORD"), "\(note)")
        #expect(note.contains("header X-Api-Key from X_API_KEY"), "\(note)")
        #expect(note.contains("awsv4 auth secretKey from AWSV4_SECRET_KEY"), "\(note)")
        #expect(note.hasSuffix("set them before apitest validate or run"), "\(note)")
        // A value made of variables stays theirs: `{{token}}` is the suite variable, read from TOKEN.
        #expect(written.contains("{{ token }}"))
    }
}
