import APITestImport
import APITestSuiteWriting
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest import har`: the entries of a HAR 1.2 archive (a browser's devtools recording) into one suite.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write a suite that replays a HAR 1.2 recording (a browser's devtools export).",
        usage: "apitest import har <file> [--include-types <types>] [<options>]",
        discussion: """
            Every entry of the included resource types becomes a test that sends the recorded request and expects \
            the recorded status (a recorded redirect is not followed). Types come from Chromium's _resourceType \
            (document, xhr, fetch, script, stylesheet, image, font, media, preflight, websocket, other) or, when \
            the browser did not record it, from the response's media type. A websocket entry becomes a websocket: \
            step that sends the recorded messages and expects the received ones. Credentials are never written into the suite: the \
            credential of Authorization, every cookie, and headers and query parameters whose names say they hold \
            a secret become {{ env.NAME }} (AUTHORIZATION, COOKIE_SESSION, X_API_KEY, ACCESS_TOKEN; listed at the top \
            of the suite and on standard error): export them before running. When all entries share an origin, it \
            is the variable 'origin': --var origin=... replays the recording against another server. See \
            docs/import.md.

            Examples:
              apitest import har app.har -o suites/app.yaml
              apitest import har app.har --include-types xhr,fetch -o api-calls.yaml
              AUTHORIZATION=... apitest run app.yaml --var origin=https://staging.test
            """
    )

    @Argument(help: ArgumentHelp("The HAR file.", valueName: "file"), completion: .file(extensions: ["har", "json"]))
    var file: String

    @Option(
        help: ArgumentHelp(
            "The resource types to import, comma-separated (default: xhr,fetch,document,websocket; 'all' for "
                + "every entry).",
            valueName: "types"))
    var includeTypes: String?

    @OptionGroup var output: ImportOutputOptions

    /// The types named by `--include-types`, nil for all.
    var types: [String]? {
        guard let includeTypes else { return HARImporter.defaultTypes }
        let names = includeTypes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return names.contains("all") ? nil : names.filter { !$0.isEmpty }
    }

    mutating func validate() throws {
        try CommandLineFile.check(file, flag: "file")
        if let types, types.isEmpty { throw ValidationError("--include-types names no type") }
        try output.checkOutput()
    }

    func run() throws {
        var inputs = OutputGuard()
        inputs.add(file, as: .argument("the HAR file"))
        try output.check(against: inputs)
        let suite: SuiteDocument
        do {
            let archive = try HARArchive.decode(try ImportPostmanCommand.bytes(file), file: file)
            var importer = HARImporter(
                archive: archive, includeTypes: types ?? HARImporter.allTypes,
                file: (file as NSString).lastPathComponent)
            if types == nil { importer.includesEverything = true }
            // Bodies that are not text go to files beside the suite (`NAME.bodies/`); standard output has none.
            if let path = output.output {
                let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                importer.bodyFolder = stem + ".bodies"
            }
            suite = importer.suite(named: output.name)
        } catch {
            let stderr = StandardOutput.error
            stderr.write("error: \(error)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        try output.write(suite)
    }
}
