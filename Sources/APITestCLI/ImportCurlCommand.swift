import APITestImport
import APITestSuiteWriting
import APITestSupport
import ArgumentParser
import Foundation

/// `apitest import curl`: curl command lines (arguments, `-f FILE` or standard input) into one suite.
struct ImportCurlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Write a suite that sends the requests of curl command lines, byte for byte.",
        usage: "apitest import curl [<command-line> ...] [-f <file>] [<options>]",
        discussion: """
            Each argument is shell text holding one or more curl command lines (quote it, so that your shell \
            leaves it alone); without arguments and -f, the command lines are read from standard input. They are \
            read as a POSIX shell reads them: quotes, backslashes, line continuations, $'…', and commands \
            separated by line breaks, ';' or '&&'. $NAME and ${NAME} become {{ env.NAME }}: the suite reads the \
            environment variable (a secret, masked in reports) instead of holding its value.

            Each URL of each command becomes a test whose request is what curl sends: method, URL, headers and \
            body (multipart parts alike), with apitest's User-Agent. Options that only change what curl prints \
            (-s, -o, -v, -w, ...) and options a suite has no equivalent for (--connect-timeout, --retry, ...) are \
            listed on standard error with their position and written as comments in the suite; an option curl \
            does not know is an error (exit 2). The tests expect any 2xx status, as a suite does by default. \
            See docs/import.md.

            Examples:
              apitest import curl 'curl -sS https://api.example.com/users -H "X-Key: $KEY"'
              apitest import curl -f requests.sh -o suites/requests.yaml
              pbpaste | apitest import curl --name "Users API" > users.yaml
            """
    )

    @Argument(help: ArgumentHelp("Shell text with one or more curl command lines.", valueName: "command-line"))
    var commandLines: [String] = []

    @Option(
        name: [.customShort("f"), .customLong("file")],
        help: ArgumentHelp("A file of curl command lines ('-' for standard input).", valueName: "file"),
        completion: .file())
    var file: String?

    @OptionGroup var output: ImportOutputOptions

    mutating func validate() throws {
        if let file, file != "-" {
            try CommandLineFile.check(file, flag: "-f")
            if !commandLines.isEmpty { throw ValidationError("give command lines as arguments or with -f, not both") }
        }
        try output.checkOutput()
    }

    func run() throws {
        let stderr = StandardOutput.error
        var inputs = OutputGuard()
        if let file, file != "-" {
            inputs.add(file, as: .flag("-f"))
        } else if commandLines.isEmpty {
            inputs.addStandardInput()
        }
        try output.check(against: inputs)
        let texts: [String]
        let source: String
        if let file, file != "-" {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
            else {
                stderr.write("error: cannot read \(file) as UTF-8 text\n")
                stderr.flush()
                throw ExitStatus.invalid.exitCode
            }
            texts = [text]
            source = (file as NSString).lastPathComponent
        } else if commandLines.isEmpty {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            texts = [String(decoding: data, as: UTF8.self)]
            source = "standard input"
        } else {
            texts = commandLines
            source = commandLines.count == 1 ? "a command line" : "\(commandLines.count) command lines"
        }
        var defaultName = "curl"
        if let file, file != "-" {
            defaultName = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        let options = CurlImporter.Options(
            name: output.name ?? defaultName, workingDirectory: FilePaths.canonical("."),
            outputDirectory: output.outputFolder, source: source, locatesLines: file != nil || commandLines.isEmpty)
        let suite: SuiteDocument
        do {
            suite = try CurlImporter(options: options).importTexts(texts)
        } catch {
            stderr.write("error: \(error)\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        try output.write(suite)
    }
}
