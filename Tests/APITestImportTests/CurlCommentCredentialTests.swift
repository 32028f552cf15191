import APITestSuiteWriting
import Testing

@testable import APITestImport

/// The command line written as a test's comment shows each credential as its variable, whatever the value holds: the
/// value is replaced in the shell words before they are quoted, so a quote in it (written `'\''`) cannot hide it.
struct CurlCommentCredentialTests {
    @Test func aCredentialWithAQuoteIsNotWrittenIntoTheComment() throws {
        let (importer, _) = try CurlImporterTests.importer()
        let suite = try importer.importTexts([
            #"curl -u 'bob:pa'\''ss' -H 'Authorization: Bearer to'\''ken' -H 'X-Api-Key: k y' http://a.example/x"#
        ])
        let text = SuiteDocumentRenderer(suite: suite).render()
        for leaked in ["pa'", "'ss", "to'", "'ken", "k y"] {
            #expect(!text.contains(leaked), "\(leaked) is written into the suite:\n\(text)")
        }
        let comment = try #require(suite.tests.first?.comments.first)
        #expect(
            comment
                == #"curl -u bob:"$API_PASSWORD" -H 'Authorization: Bearer '"$AUTHORIZATION" -H 'X-Api-Key: '"$X_API_KEY" "#
                + "http://a.example/x")
    }

    @Test func aValueWithoutQuotesShowsAsItsVariableToo() throws {
        let (importer, _) = try CurlImporterTests.importer()
        let suite = try importer.importTexts(["curl -u alice:pw-1 --oauth2-bearer 'tok en' http://a/1"])
        let comment = try #require(suite.tests.first?.comments.first)
        #expect(comment == #"curl -u alice:"$API_PASSWORD" --oauth2-bearer "$BEARER_TOKEN" http://a/1"#)
    }
}
