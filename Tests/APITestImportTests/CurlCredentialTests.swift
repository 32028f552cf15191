import Testing

@testable import APITestImport

/// `import curl` and credentials written out: a header whose name says it holds one (the rule of every importer,
/// `CredentialNames`) is noted when its value is given as text, as `-u`'s password is; from a shell variable it is
/// read from the environment and needs no note.
struct CurlCredentialTests {
    @Test func aCredentialHeaderWrittenOutIsNoted() throws {
        let (importer, _) = try CurlImporterTests.importer()
        let suite = try importer.importTexts([
            "curl -H 'X-Api-Key: abc123' -H 'Accept: text/plain' http://a/x; curl -H \"X-Api-Key: $API_KEY\" http://a/y"
        ])
        #expect(
            suite.tests[0].notes.map(\.rendered) == [
                "argument 1: the value of X-Api-Key is written into the suite as given: move it to an environment "
                    + "variable (X-Api-Key: \"{{ env.X_API_KEY }}\")"
            ])
        #expect(suite.tests[1].notes.isEmpty)
        #expect(suite.tests[1].request.headers == [ImportedHeader("X-Api-Key", "{{ env.API_KEY }}")])
    }
}
