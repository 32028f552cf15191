import APITestContractTesting
import APITestReporting
import APITestResults
import APITestRunner
import APITestSuiteWriting
import APITestSupport
import APITestYAML
import ArgumentParser
import Foundation

/// Running `apitest fuzz`: load, run, print, report, write the findings.
extension FuzzCommand {
    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let stderr = StandardOutput.error
        let stdout = StandardOutput.out
        let colored = ANSIStyle.shouldColor(output: stderr, environment: environment, disabled: noColor)

        let reader = OpenAPIYAMLReader()
        let description: FuzzDocument
        switch OpenAPIDescriptionLoader.load(path: spec, strictSpec: specOptions.strictSpec) {
        case .failure(let error):
            stderr.write(error.render(colored: colored) + "\n")
            let count = error.diagnostics.count
            stderr.write("\(count) error\(count == 1 ? "" : "s") in \(spec.shownInMessage); nothing was sent.\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        case .success(let loaded):
            // What the loader translated or ignored of a document that is not strictly valid, at its place.
            for warning in OpenAPIDescriptionLoader.warningDiagnostics(of: loaded, named: spec) {
                stderr.write(DiagnosticRenderer.oneLine(warning) + "\n")
            }
            stderr.flush()
            do {
                description = try FuzzDocument.load(description: loaded, reader: reader)
            } catch {
                stderr.write("error: \(spec.shownInMessage): the document does not load as a contract\n")
                stderr.flush()
                throw ExitStatus.invalid.exitCode
            }
        }
        guard let base = baseURL ?? description.defaultBaseURL else {
            stderr.write(
                "error: no --base-url, and the document's servers give no absolute http(s) URL: say where the API "
                    + "is with --base-url URL\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }

        // Nothing written is a file the command reads.
        var inputs = OutputGuard()
        inputs.add(spec, as: .argument("the OpenAPI document"))
        inputs.addCheckedFiles()
        try inputs.check(
            reports.outputs(environment: environment) + [("--findings", findings)], errorOutput: stderr,
            consequence: "nothing was sent")
        let reporters = try reports.makeReporters()

        var configuration = FuzzConfiguration(baseURL: base)
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        configuration.seed = seed
        configuration.maxExamples = maxExamples
        configuration.duration = duration?.duration
        configuration.phases = parsedPhases
        configuration.checks = parsedChecks
        configuration.headers = parsedHeaders
        configuration.concurrency = concurrency
        configuration.timeout = requests.timeout?.duration
        configuration.connectTimeout = requests.connectTimeout?.duration
        // `run`'s one conversion of its flags, and the runner's one use of them.
        do {
            let options = try RunOptions(
                jobs: concurrency, requests: requests, security: security, transport: transport)
            configuration.transfer = try RequestTransfer(options)
        } catch {
            stderr.write("error: \(String(describing: error).shownInMessage); nothing was sent\n")
            stderr.flush()
            throw ExitStatus.invalid.exitCode
        }
        configuration.dryRun = dryRun

        let engine = description.engine(configuration)
        if dryRun {
            for fuzzCase in engine.generatedCases() {
                let request = engine.request(for: fuzzCase)
                stdout.write(
                    "\(fuzzCase.phase.rawValue) \(request.method) \(engine.mask(request.pathAndQuery).shownInMessage)"
                        + " [\(fuzzCase.label.shownInMessage)] \(Self.word(engine.judge(fuzzCase, request)))\n")
            }
            stdout.flush()
            return
        }
        stdout.write("apitest fuzz: \(spec.shownInMessage) against \(base.shownInMessage), seed \(seed)\n")
        stdout.flush()
        let run = await engine.execute()
        // An API that never answered is no pass: say why and stop (nothing was checked).
        if !run.outcomes.isEmpty, run.outcomes.allSatisfy({ $0.response == nil }) {
            let reason = run.outcomes.first?.transportError ?? "no response"
            stderr.write(
                "error: no request to \(base.shownInMessage) got a response (\(engine.mask(reason).shownInMessage)); "
                    + "nothing was checked\n")
            stderr.flush()
            throw ExitStatus.runtimeError.exitCode
        }
        // A run that sent nothing checked nothing: no pass either (exit 4, as `run` when nothing is selected).
        if run.outcomes.isEmpty {
            stderr.write(
                "error: no request was sent: \(nothingSentReason(notSent: run.notSent)); nothing was checked\n")
            stderr.flush()
            throw ExitStatus.noTestsSelected.exitCode
        }
        stdout.write("\n" + engine.summary(of: run).render())
        stdout.write("Reproduce this run with --seed \(seed).\n")
        stdout.flush()

        var failedWrites = false
        let results = engine.testResults(of: run, specPath: spec)
        for reporter in reporters {
            reporter.handle(.runStarted(results.plan))
            for result in results.tests { reporter.handle(.testFinished(result)) }
            reporter.handle(.runFinished(results.summary))
            if let error = reporter.writeError {
                stderr.write("error: \(error)\n")
                failedWrites = true
            }
        }
        if !run.findings.isEmpty {
            let folder = FilePaths.canonical(findings)
            let files = engine.findingFiles(
                of: run, documentReference: RelativePath.from(directory: folder, to: FilePaths.canonical(spec)))
            try inputs.check(
                files.map { ("--findings", SuiteFileWriter.join(findings, $0.name)) }, errorOutput: stderr,
                consequence: "no finding was written")
            do {
                let written = try SuiteFileWriter.write(files, to: findings, overwrite: true)
                for path in written { stdout.write("wrote \(path.shownInMessage)\n") }
            } catch {
                stderr.write("error: \(error)\n")
                failedWrites = true
            }
        }
        stdout.flush()
        stderr.flush()
        if failedWrites { throw ExitStatus.runtimeError.exitCode }
        if !run.findings.isEmpty { throw ExitStatus.testsFailed.exitCode }
    }

    /// Why a run sent no request: `--duration` ran out before the first case, or no case was made.
    private func nothingSentReason(notSent: Int) -> String {
        if notSent > 0 {
            return "none of the \(notSent) cases made was started before --duration ran out"
        }
        if parsedPhases == FuzzPhase.allCases { return "the document has no operation" }
        let named = parsedPhases.map(\.rawValue).joined(separator: ",")
        return "--phases \(named) made no request for the document's operations"
            + (parsedPhases == [.stateful] ? " (the stateful phase needs an operation that creates a resource)" : "")
    }

    /// How the dry run names an intent.
    private static func word(_ intent: FuzzCase.Intent) -> String {
        switch intent {
        case .valid: "valid"
        case .invalid(let keyword, let place): "invalid: \(place) \(keyword)"
        case .unknown: "not judged"
        }
    }
}
