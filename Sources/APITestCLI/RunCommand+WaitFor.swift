import APITestHTTP
import APITestReporting
import APITestRunner
import APITestSuite

extension RunCommand {
    /// `--wait-for`: waits until every host of `suites` accepts TCP connections, or prints one line per host that
    /// did not and throws exit code 3.
    static func waitForHosts(of suites: [Suite], within limit: DurationArgument, errorOutput: TextOutput) async throws {
        let endpoints = ReachabilityTargets.endpoints(of: suites)
        guard !endpoints.isEmpty else { return }
        let failures = await ReachabilityProbe.waitUntilReachable(endpoints, within: limit.duration)
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
