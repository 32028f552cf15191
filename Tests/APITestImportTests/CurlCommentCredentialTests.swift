import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// The command line written as a test's comment shows each credential as its variable, whatever the value holds: the
/// value is replaced in the shell words before they are quoted, so a quote in it (written `'\''`) cannot hide it.
/// The words are quoted by the one shell-word model (`ShellWord.quoted`), a variable as `"${NAME}"`.
struct CurlCommentCredentialTests {
    @Test func aCredentialWithAQuoteIsNotWrittenIntoTheComment() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
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
                == #"curl -u bob:"${API_PASSWORD}" -H 'Authorization: Bearer '"${AUTHORIZATION}" "#
                + #"-H 'X-Api-Key: '"${X_API_KEY}" "#
                + "http://a.example/x")
    }

    @Test func aValueWithoutQuotesShowsAsItsVariableToo() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let suite = try importer.importTexts(["curl -u alice:pw-1 --oauth2-bearer 'tok en' http://a/1"])
        let comment = try #require(suite.tests.first?.comments.first)
        #expect(comment == #"curl -u alice:"${API_PASSWORD}" --oauth2-bearer "${BEARER_TOKEN}" http://a/1"#)
    }

    /// The comment as the suite file holds it reads back in bash as the words of the command: a tab or an escape
    /// character is written by `printf`, which the comment's one-line escaping leaves alone (the old quoting put it
    /// raw between single quotes, where the escaping made it the two characters `\t`).
    @Test func theWrittenCommentReadsBackAsTheSameWords() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let words = #"-d $'a\tb\x1b[31m' -d 'it'\''s' -d a=1 'http://a/x?q=$HOME'"#
        let suite = try importer.importTexts(["curl " + words])
        let text = SuiteDocumentRenderer(suite: suite).render()
        let line = try #require(text.split(separator: "\n").first { $0.contains("# curl ") })
        let written = String(line[try #require(line.range(of: "# curl ")).upperBound...])
        let splitter = ShellSplitterTests()
        #expect(try splitter.bashWords(written) == (try splitter.bashWords(words)), "\(written)")
    }

    /// A short credential (a one-letter password, a token that is a common syllable) is replaced only where it was
    /// taken from and only as a whole value: the old comment replaced every occurrence on the line, so `-u al:e`
    /// turned `https://api.example.com` into `api."${API_PASSWORD}"xampl"${API_PASSWORD}".com`.
    @Test func aShortCredentialIsReplacedOnlyWhereItWasTaken() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        let suite = try importer.importTexts([
            "curl -u al:e https://api.example.com/users/alice -H 'X-Api-Key: e'"
        ])
        let comment = try #require(suite.tests.first?.comments.first)
        #expect(
            comment
                == #"curl -u al:"${API_PASSWORD}" https://api.example.com/users/alice -H 'X-Api-Key: '"${X_API_KEY}""#)
        let second = try importer.importTexts([
            "curl 'https://e.example.com/x?access_token=e&page=e' -H 'Authorization: Bearer abc' --oauth2-bearer tok"
        ])
        let secondComment = try #require(second.tests.first?.comments.first)
        #expect(
            secondComment
                == #"curl 'https://e.example.com/x?access_token='"${ACCESS_TOKEN}"'&page=e' "#
                + #"-H 'Authorization: Bearer '"${AUTHORIZATION}" --oauth2-bearer "${BEARER_TOKEN}""#)
    }
}
