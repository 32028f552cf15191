import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `import curl` and credentials written out: a header whose name says it holds one (the rule of every importer,
/// `CredentialNames`), `-u`'s password, `--oauth2-bearer`'s token, a cookie, a credential query parameter, a URL's
/// password and `--aws-sigv4`'s keys given as text are read from the environment (``HARSecrets``, the mechanism
/// every importer shares), with a note naming the variable; from a shell variable they are read from the environment
/// already and need no note.
struct CurlCredentialTests {
    @Test func aCredentialHeaderWrittenOutIsReadFromTheEnvironment() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let suite = try importer.importTexts([
            "curl -H 'X-Api-Key: abc123' -H 'Accept: text/plain' http://a/x; curl -H \"X-Api-Key: $API_KEY\" http://a/y"
        ])
        #expect(
            suite.tests[0].notes.map(\.rendered) == [
                "argument 1: header X-Api-Key is read from the environment variable X_API_KEY, not written into the "
                    + "suite: set it before apitest validate or run"
            ])
        #expect(suite.tests[0].request.headers.contains(SuiteDocument.Header("X-Api-Key", "{{ env.X_API_KEY }}")))
        #expect(suite.tests[1].notes.isEmpty)
        #expect(suite.tests[1].request.headers == [SuiteDocument.Header("X-Api-Key", "{{ env.API_KEY }}")])
    }

    @Test func noCredentialWrittenOutReachesTheSuite() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let secrets = [
            "pw-1", "bearer-2", "auth-3", "cookie-4", "query-5", "url-pw-6", "aws-secret-8", "aws-token-9",
        ]
        let suite = try importer.importTexts([
            "curl -u alice:pw-1 http://a/1",
            "curl --oauth2-bearer bearer-2 http://a/2",
            "curl -H 'Authorization: Basic auth-3' -b 'session=cookie-4' 'http://a/3?access_token=query-5&page=2'",
            "curl 'https://bob:url-pw-6@b.example/4'",
            "curl --aws-sigv4 aws:amz:eu-west-1:s3 -u AKIA7:aws-secret-8 -H 'x-amz-security-token: aws-token-9' "
                + "https://s3.example/5",
        ])
        let text = SuiteDocumentRenderer(suite: suite).render()
        for secret in secrets { #expect(!text.contains(secret), "\(secret) is written into the suite:\n\(text)") }
        #expect(text.contains("Authorization: \"Basic {{ env.AUTHORIZATION }}\""), "\(text)")
        #expect(text.contains("https://bob:{{ env.URL_PASSWORD }}@b.example/4"), "\(text)")
        #expect(text.contains("page=2"))
        let notes = suite.allNotes.map(\.rendered).joined(separator: "\n")
        for name in [
            "API_PASSWORD", "BEARER_TOKEN", "AUTHORIZATION", "COOKIE_SESSION", "ACCESS_TOKEN", "URL_PASSWORD",
            "API_PASSWORD_2", "X_AMZ_SECURITY_TOKEN",
        ] {
            #expect(notes.contains("environment variable \(name), not written into the suite"), "\(name): \(notes)")
        }
        // The same password in two commands is one variable; another password is another.
        let two = try importer.importTexts(["curl -u a:same http://a/1", "curl -u b:same http://a/2 -u c:other"])
        let twoText = SuiteDocumentRenderer(suite: two).render()
        #expect(Set(two.environmentVariables) == ["API_PASSWORD", "API_PASSWORD_2"], "\(twoText)")
        // A name the commands read from the shell is never given to a credential written out.
        let read = try importer.importTexts(["curl -u a:pw http://a/1", "curl -H \"X-Key: $API_PASSWORD\" http://a/2"])
        #expect(Set(read.environmentVariables) == ["API_PASSWORD", "API_PASSWORD_2"])
    }
}
