import ArgumentParser

/// apitest's documented exit codes.
enum ExitStatus: Int32 {
    case passed = 0
    case testsFailed = 1
    case invalid = 2
    case runtimeError = 3
    /// `--filter`, `--tag` and `--exclude-tag` matched no test (nothing ran); `fuzz` sent no request.
    case noTestsSelected = 4
    case interrupted = 130

    var exitCode: ExitCode { ExitCode(rawValue) }
}
