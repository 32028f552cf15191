import APITestImport
import APITestSuiteWriting
import APITestSupport
import ArgumentParser
import Foundation

/// The flags every `apitest import` subcommand shares: where the suite goes, overwriting, and its name.
struct ImportOutputOptions: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "The suite file to write (default: standard output); a device or a FIFO is written through, never "
                + "replaced, and the file being imported is refused.", valueName: "file"), completion: .file())
    var output: String?

    @Flag(help: "Overwrite the output file when it exists.")
    var force = false

    @Option(help: ArgumentHelp("The suite's name (default: from the source).", valueName: "name"))
    var name: String?

    /// The folder the suite's relative paths (files it names, the editor schema) are relative to: the output file's
    /// folder, or the current folder for standard output.
    var outputFolder: String {
        guard let output else { return FilePaths.canonical(".") }
        return FilePaths.directory(of: FilePaths.canonical(output))
    }

    /// The editor schema's path relative to ``outputFolder``, for the modeline, and whether it was found.
    func schemaReference() -> (path: String, found: Bool) {
        let folder = outputFolder
        let schema = EditorSchemaLocator.locate(from: folder, executable: "/proc/self/exe")
        let target = schema ?? FilePaths.absolute(EditorSchemaLocator.schemaPath)
        return (RelativePath.from(directory: folder, to: target), schema != nil)
    }

    /// Checks that the output file can be written before anything is read: it is not a folder, and it does not exist
    /// unless `--force`.
    func checkOutput() throws {
        guard let output else { return }
        if output.isEmpty { throw ValidationError("-o needs a file") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue { throw ValidationError("\(output) is a folder: -o takes a suite file") }
        if !force { throw ValidationError("\(output) exists; nothing was written (--force overwrites)") }
    }

    /// Checks, with ``OutputGuard``, that the output (the `-o` file, or standard output when it is redirected to a
    /// file) is none of `inputs` (the import's sources); prints the error and throws exit status 2 when it is.
    func check(against inputs: OutputGuard) throws {
        let outputs = output.map { [(flag: "-o", path: $0)] } ?? []
        try inputs.check(
            outputs, standardOutput: output == nil, errorOutput: StandardOutput.error,
            consequence: "nothing was written")
    }

    /// Renders `suite`, writes it (to the file, or standard output), and lists its notes on standard error; the exit
    /// status 3 when the file cannot be written, 2 when it exists without `--force`.
    func write(_ suite: SuiteDocument) throws {
        let stderr = StandardOutput.error
        let (schema, found) = schemaReference()
        var document = suite
        document.schemaReference = schema
        let text = SuiteDocumentRenderer(suite: document).render()
        for note in suite.allNotes { stderr.write("note: \(note.rendered)\n") }
        if let output {
            do {
                try SuiteFileWriter.writeFile(text, to: output, overwrite: force)
            } catch {
                stderr.write("error: \(error)\n")
                stderr.flush()
                if case .writeFailed = error.kind { throw ExitStatus.runtimeError.exitCode }
                throw ExitStatus.invalid.exitCode
            }
            let count = suite.tests.count
            stderr.write("wrote \(output): \(count) test\(count == 1 ? "" : "s")\n")
            do {
                // The files the suite names (a recorded binary body), beside it.
                for path in try suite.writeFiles(relativeTo: FilePaths.directory(of: output), overwrite: force) {
                    stderr.write("wrote \(path)\n")
                }
            } catch {
                stderr.write("error: \(error)\n")
                stderr.flush()
                throw (error.exists ? ExitStatus.invalid : ExitStatus.runtimeError).exitCode
            }
            if !found {
                stderr.write(
                    "note: \(EditorSchemaLocator.schemaPath) was not found above \(output) or near apitest; the "
                        + "editor modeline points at ./\(EditorSchemaLocator.schemaPath) (docs/editor.md)\n")
            }
        } else {
            let stdout = StandardOutput.out
            stdout.write(text)
            stdout.flush()
        }
        let environment = suite.environmentVariables
        if !environment.isEmpty {
            stderr.write(
                "the suite reads \(environment.joined(separator: ", ")) from the environment: set "
                    + "\(environment.count == 1 ? "it" : "them") before apitest validate or run\n")
        }
        stderr.flush()
    }
}
