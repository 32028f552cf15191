import APITestRunner
import APITestSupport

extension RunCommand {
    /// `--wait-for`: waits until every host of the request accepts TCP connections, or prints one line per host that
    /// did not and throws exit code 3.
    static func waitForHosts(
        of request: RunRequest, within limit: DurationArgument, errorOutput: TextOutput
    ) async throws {
        let failures = await RunService.waitForHosts(of: request, within: limit.duration)
        guard !failures.isEmpty else { return }
        for failure in failures {
            errorOutput.write(
                "apitest: \(failure.endpoint) did not accept connections within \(limit.text) (\(failure.cause)); "
                    + "nothing was run.\n")
        }
        errorOutput.flush()
        throw ExitStatus.runtimeError.exitCode
    }
}
