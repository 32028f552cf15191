import APITestGenerate
import APITestSuiteWriting
import APITestSupport
import APITestYAML
import ArgumentParser
import Foundation

/// `apitest generate openapi SPEC -o DIR`: a suite per tag (or path segment) with a test per operation, each
/// response checked against the document.
struct GenerateOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Write suites that call every operation of an OpenAPI 3.0/3.1 document and check the responses.",
        usage: "apitest generate openapi <spec> -o <dir> [<options>]",
        discussion: """
            One suite file per tag (an operation's first; untagged operations in default.yaml) or, with \
            --group-by path, per first path segment. Each operation gets a test whose request is built from the \
            document's examples and schemas (required parameters and properties only) and checked against the \
            document before it is written; it expects the first 2xx status declared. The suites set openapi: so \
            every response is checked against the document. An operation that cannot be tested honestly (a \
            multipart body, a credential apitest cannot send) is a comment in its file saying why. Credentials are \
            placeholders for environment variables ({{ env.API_KEY }}); the command names those to set. See \
            docs/generate.md.

            Existing files are not overwritten without --force (exit 2, nothing written), and the document itself \
            never is, even with --force. A device, a FIFO or a link to one is written through, never replaced.

            Examples:
              apitest generate openapi api/openapi.yaml -o suites/
              apitest generate openapi api.yaml -o suites/ --base-url http://localhost:8080
              apitest generate openapi api.yaml -o suites/ --group-by path --force
            """
    )

    /// How operations are split into files.
    enum GroupBy: String, ExpressibleByArgument, CaseIterable {
        case tag
        case path
    }

    @Argument(
        help: ArgumentHelp("The OpenAPI 3.0 or 3.1 document (YAML or JSON).", valueName: "spec"),
        completion: .file(extensions: ["yaml", "yml", "json"]))
    var spec: String

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("The folder the suites are written to (created when missing).", valueName: "dir"),
        completion: .directory)
    var output: String

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp("A file per tag, or per first path segment.", valueName: "tag|path"))
    var groupBy: GroupBy = .tag

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "The suites' baseURL, also the contract's server (default: the document's first server).",
            valueName: "url"))
    var baseURL: String?

    @Flag(help: "Overwrite suite files that exist.")
    var force = false

    @OptionGroup var specOptions: SpecOptions

    @Flag(help: "Never colour the output (also when NO_COLOR is set).")
    var noColor = false

    mutating func validate() throws {
        try CommandLineFile.check(spec, flag: "spec")
        if output.isEmpty { throw ValidationError("-o needs a folder") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let stderr = StandardOutput.error
        let stdout = StandardOutput.out
        let colored = ANSIStyle.shouldColor(output: stderr, environment: environment, disabled: noColor)
        let outputFolder = FilePaths.canonical(output)
        let schema = EditorSchemaLocator.locate(from: outputFolder, executable: "/proc/self/exe")
        let options = SuiteGenerationOptions(
            grouping: groupBy == .tag ? .tag : .path, baseURL: baseURL,
            documentReference: RelativePath.from(directory: outputFolder, to: FilePaths.canonical(spec)),
            schemaReference: RelativePath.from(
                directory: outputFolder,
                to: schema ?? FilePaths.absolute(EditorSchemaLocator.schemaPath)),
            documentName: String(spec.split(separator: "/").last ?? Substring(spec)))

        let suites: GeneratedSuites
        switch OpenAPIDescriptionLoader.load(path: spec, strictSpec: specOptions.strictSpec) {
        case .failure(let error):
            stderr.write(error.render(colored: colored) + "\n")
            let count = error.diagnostics.count
            stderr.write("\(count) error\(count == 1 ? "" : "s") in \(spec); nothing was generated.\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        case .success(let description):
            let warnings = OpenAPIDescriptionLoader.warningDiagnostics(of: description, named: spec)
            for warning in warnings { stderr.write(DiagnosticRenderer.oneLine(warning) + "\n") }
            stderr.flush()
            suites = SuiteGenerator(description: description, options: options).generate()
        }

        // No suite file (nor a redirected standard output) is the document apitest reads.
        var inputs = OutputGuard()
        inputs.add(spec, as: .argument("the OpenAPI document"))
        // And the files its $refs name, which the document's load found readable.
        inputs.addCheckedFiles()
        try inputs.check(
            suites.files.map { ("-o", SuiteFileWriter.join(output, $0.fileName)) }, errorOutput: stderr,
            consequence: "nothing was generated")
        let written: [String]
        do {
            written = try SuiteFileWriter.write(
                suites.files.map { ($0.fileName, $0.text) }, to: output, overwrite: force)
        } catch {
            stderr.write("error: \(error)\n")
            stderr.flush()
            if case .writeFailed = error.kind { throw ExitStatus.runtimeError.exitCode }
            throw ExitStatus.invalid.exitCode
        }
        report(suites, written: written, schemaFound: schema != nil, to: stdout, notes: stderr)
    }

    /// Prints what was written and skipped, and what the suites need.
    private func report(
        _ suites: GeneratedSuites, written: [String], schemaFound: Bool, to stdout: TextOutput, notes: TextOutput
    ) {
        for (path, file) in zip(written, suites.files) {
            stdout.write(
                "wrote \(path): \(Self.counts(tests: file.testNames.count, steps: file.teardownNames.count))\n")
        }
        for skipped in suites.skipped {
            stdout.write("skipped \(skipped.name) (\(skipped.methodAndPath)): \(skipped.reason)\n")
        }
        let tests = suites.files.reduce(0) { $0 + $1.testNames.count }
        let steps = suites.files.reduce(0) { $0 + $1.teardownNames.count }
        if suites.operationCount == 0 {
            stdout.write("no suite written: the document declares no operation under paths\n")
        } else if suites.files.isEmpty {
            stdout.write("no suite written: no operation of the document could be turned into a test\n")
        } else {
            stdout.write(
                "\(Self.counts(tests: tests, steps: steps)) in \(written.count) file\(written.count == 1 ? "" : "s"), "
                    + "\(suites.skipped.count) operation\(suites.skipped.count == 1 ? "" : "s") skipped\n")
        }
        if !suites.environment.isEmpty {
            stdout.write(
                "the suites read credentials from the environment: set \(suites.environment.joined(separator: ", ")) "
                    + "before apitest validate or run\n")
        }
        stdout.flush()
        if !schemaFound {
            notes.write(
                "note: \(EditorSchemaLocator.schemaPath) was not found above \(output) or near apitest; the editor "
                    + "modeline points at ./\(EditorSchemaLocator.schemaPath): copy the schema there "
                    + "(docs/editor.md)\n")
            notes.flush()
        }
    }

    /// `3 tests`, or `2 tests and 2 teardown steps`: the tests as `apitest validate` counts them, and the operations
    /// that change state, which are `teardown` steps.
    static func counts(tests: Int, steps: Int) -> String {
        let counted = "\(tests) test\(tests == 1 ? "" : "s")"
        return steps == 0 ? counted : counted + " and \(steps) teardown step\(steps == 1 ? "" : "s")"
    }
}
