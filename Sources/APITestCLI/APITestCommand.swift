import APITestRunner
import APITestSupport
import ArgumentParser
import Foundation

/// The `apitest` command: subcommands for running, validating and (later) pin-checking.
struct APITestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apitest",
        abstract: "Declarative HTTP API tests: run YAML suites, check every response, report for people and CI.",
        discussion: """
            Exit codes:
              0  every test passed
              1  a test failed or errored (an assertion did not hold, a network failure)
              2  a suite or the command line is invalid (nothing ran)
              3  a runtime error stopped apitest itself; a report file or standard
                 output could not be written; a host did not accept connections
                 within --wait-for, or libxml2 (needed for XPath checks) could not
                 be loaded (nothing ran)
              4  --filter, --tag and --exclude-tag matched no test (nothing ran)
              130  interrupted (Ctrl-C); the tests that finished are still reported
            pin-check and load have their own codes: see apitest pin-check --help and apitest load --help.
            """,
        version: APITestVersion.string,
        subcommands: [
            RunCommand.self, ValidateCommand.self, ListCommand.self, PinCheckCommand.self, GenerateCommand.self,
            ImportCommand.self,
            ExportCommand.self, MergeCommand.self, LoadCommand.self,
            FuzzCommand.self,
        ],
        defaultSubcommand: nil
    )
}

/// Entry point: parses arguments, runs the command, and maps usage errors to exit code 2.
@main
enum Main {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        AllocatorSettings.decommitFreedMemoryAtOnce(arguments: CommandLine.arguments.dropFirst())
        // `apitest run` needs libcurl, whose set-up (the TLS library's) takes about half a millisecond: do it on
        // another thread while the arguments are parsed and the suites loaded. Wait for it before exiting.
        let preparesCurl = CommandLine.arguments.dropFirst().first == "run"
        if preparesCurl { RunService.prepareTransportInBackground() }
        let failure: (any Error)?
        do {
            // A plain `run` or `validate` command line skips swift-argument-parser's first parse (~3 ms); anything
            // else, errors and help included, goes through it.
            let arguments = CommandLine.arguments.dropFirst()
            if arguments.first == "run",
                let command = ArgumentScanner<RunCommand>.command(for: Array(arguments.dropFirst()))
            {
                try await command.execute()
            } else if arguments.first == "validate",
                let command = ArgumentScanner<ValidateCommand>.command(for: Array(arguments.dropFirst()))
            {
                try command.run()
            } else {
                var command = try APITestCommand.parseAsRoot()
                if var asyncCommand = command as? AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
            failure = nil
        } catch {
            failure = error
        }
        if preparesCurl { RunService.waitForTransport() }
        // A command whose product is standard output (list, export curl, import without -o, ...) has failed when
        // it could not be written (a full disk, a closed pipe): exit 3 rather than 0.
        let outputFailed = standardOutputFailed()
        if failure == nil { leave(status: outputFailed ? ExitStatus.runtimeError.rawValue : 0) }
        if let exitCode = failure as? ExitCode {
            leave(status: outputFailed && exitCode.rawValue == 0 ? ExitStatus.runtimeError.rawValue : exitCode.rawValue)
        }
        if let error = failure {
            let code = APITestCommand.exitCode(for: error)
            if code == .validationFailure {
                let message = messageEscaping.escape(APITestCommand.fullMessage(for: error))
                FileHandle.standardError.write(Data((message + "\n").utf8))
                exit(ExitStatus.invalid.rawValue)
            }
            if code == .success, isVersionRequest(error) {
                StandardOutput.out.write(VersionText.text + "\n")
                leave(status: standardOutputFailed() ? ExitStatus.runtimeError.rawValue : 0)
            }
            if error is ExitCode || code == .success {
                APITestCommand.exit(withError: error)
            }
            // Anything else is apitest's own failure, not the tests': report it and exit with 3.
            FileHandle.standardError.write(Data("error: \(messageEscaping.escape(String(describing: error)))\n".utf8))
            exit(ExitStatus.runtimeError.rawValue)
        }
    }

    /// How an error message is shown: it may quote a command-line value (`The value '4\u{1B}[2J' is invalid for
    /// '--jobs'`), which must not reach the terminal as control characters; its own line breaks stay.
    private static let messageEscaping = DisplayEscaping([.controls, .bidiControls], replacing: ["\n": "\n"])

    /// Whether `error` is swift-argument-parser's answer to `--version` (the configuration's bare version).
    ///
    /// The configuration holds only ``APITestVersion``, which costs nothing to make on every parse; the library
    /// versions ``VersionText`` adds are read only when `--version` was asked for.
    private static func isVersionRequest(_ error: any Error) -> Bool {
        CommandLine.arguments.dropFirst().contains("--version")
            && APITestCommand.fullMessage(for: error) == APITestCommand.configuration.version
    }

    /// Whether what apitest wrote to standard output (through ``StandardOutput``, as every command does) failed to
    /// reach it; says why on standard error when it did.
    private static func standardOutputFailed() -> Bool {
        guard let reason = StandardOutput.out.writeFailure() else { return false }
        FileHandle.standardError.write(Data("error: cannot write to standard output: \(reason)\n".utf8))
        return true
    }

    /// Ends the process without running the C exit handlers, once a command has finished normally.
    ///
    /// Everything apitest writes has been written and flushed by then (reports atomically, the console through
    /// `TextOutput`); what `exit` would add is the teardown of OpenSSL, libxml2 and the Swift runtime, about half
    /// a millisecond of every run. C stdio is flushed first in case anything used it.
    private static func leave(status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
