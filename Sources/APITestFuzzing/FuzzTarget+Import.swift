import APITestImport
import APITestSuiteWriting

// MARK: - The importers' parsers

extension FuzzTarget {
    /// Splits `bytes` as shell text of curl command lines, imports them and renders the suite. The working folder
    /// does not exist, so no file a command line names is read.
    static func importCurl(_ bytes: [UInt8]) {
        let importer = CurlImporter(
            options: CurlImporter.Options(
                workingDirectory: "/nonexistent-apitest-fuzz", outputDirectory: "/nonexistent-apitest-fuzz",
                source: "fuzz", locatesLines: true))
        guard let suite = try? importer.importTexts([text(bytes)]) else { return }
        _ = SuiteDocumentRenderer(suite: suite).render()
    }

    /// Translates `bytes` as the lines of a Postman test script.
    static func translatePostmanScript(_ bytes: [UInt8]) {
        let lines = text(bytes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        _ = PostmanScriptTranslator.translate(lines)
    }
}
