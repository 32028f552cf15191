import APITestSecurity
import APITestTestSupport
import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// The quick argument scan of `apitest run` and `apitest validate` must mean exactly what swift-argument-parser
/// means, or step aside.
@Suite struct ArgumentScannerTests {
    // MARK: - The tables against swift-argument-parser's own description

    @Test func knowsEveryOptionOfRunUnderEverySpellingAndKind() throws {
        let (expected, actual) = try Self.kinds(of: RunCommand.self)
        #expect(expected.count > 25, "the dump lists run's options")
        #expect(actual == expected)
    }

    @Test func knowsEveryOptionOfValidateUnderEverySpellingAndKind() throws {
        let (expected, actual) = try Self.kinds(of: ValidateCommand.self)
        #expect(expected.count == 5, "the dump lists validate's options")
        #expect(actual == expected)
    }

    /// The kind of every spelling (flag, single, repeating): as the dump says, as the scanner's table says.
    static func kinds<Command: ScannableCommand>(
        of command: Command.Type
    ) throws -> (
        expected: [String: String], actual: [String: String]
    ) {
        var expected: [String: String] = [:]
        // swift-argument-parser's own flags (--help, --version) are left out: the scanner leaves them to it.
        for argument in try ArgumentTableGenerator.dumpedArguments(of: command) where argument.kind != "positional" {
            let kind = argument.kind == "flag" ? "flag" : argument.isRepeating ? "repeating" : "single"
            for spelling in argument.spellings { expected[spelling] = kind }
        }
        var actual: [String: String] = [:]
        for option in Command.scannedOptions {
            let kind: String
            switch option.action {
            case .flag: kind = "flag"
            case .single: kind = "single"
            case .repeating: kind = "repeating"
            }
            for name in option.names { actual[name] = kind }
        }
        return (expected, actual)
    }

    // MARK: - Lines swift-argument-parser must decide

    @Test(arguments: [
        [], ["--help"], ["-h"], ["a.yaml", "--help"], ["a.yaml", "--version"], ["--experimental-dump-help"],
        ["-vq", "a.yaml"], ["a.yaml", "-j5"], ["a.yaml", "-j=5"], ["a.yaml", "--jobs", "5", "--jobs", "6"],
        ["a.yaml", "--verbose=true"], ["a.yaml", "-v", "-v"], ["a.yaml", "--jobs", "-1"], ["a.yaml", "--jobs"],
        ["a.yaml", "--jobs", "x"], ["a.yaml", "--jobs", "0"], ["a.yaml", "--unknown"],
        ["a.yaml", "--report-junit", ""],
        ["", "a.yaml"], ["a.yaml", "-"], ["a.yaml", "--var", "novalue"], ["a.yaml", "--tap-version", "12"],
        ["a.yaml", "--shard", "0/2"], ["a.yaml", "--filter", "("], ["a.yaml", "--pinning", "bogus"],
        ["a.yaml", "--pin", "md5//abc"], ["a.yaml", "--ca-file", "/nonexistent/ca.pem"], ["a.yaml", "-v", "-q"],
        ["a.yaml", "--generate-completion-script", "bash"], ["a.yaml", "--timeout", "soon"],
        ["a.yaml", "--report-junit", "r.xml", "--report-tap", "r.xml"],
    ])
    func leavesToArgumentParser(_ arguments: [String]) {
        #expect(ArgumentScanner<RunCommand>.command(for: arguments) == nil)
    }

    @Test(arguments: [
        [], ["--help"], ["-h"], ["a.yaml", "--help"], ["a.yaml", "--version"], ["--experimental-dump-help"],
        ["a.yaml", "--no-color=true"], ["a.yaml", "--no-color", "--no-color"], ["a.yaml", "--openapi"],
        ["a.yaml", "--openapi", "a.yaml", "--openapi", "b.yaml"], ["a.yaml", "--openapi", ""],
        ["a.yaml", "--openapi", "/nonexistent/api.yaml"], ["a.yaml", "--unknown"], ["a.yaml", "--jobs", "5"],
        ["a.yaml", "-v"], ["", "a.yaml"], ["a.yaml", "-"], ["a.yaml", "--var", "novalue"], ["a.yaml", "--var", "=x"],
        ["a.yaml", "--var", "-x=1"], ["/dev/null", "a.yaml"], ["a.yaml", "--strict-spec=no"],
        ["a.yaml", "--generate-completion-script", "bash"],
    ])
    func leavesValidateToArgumentParser(_ arguments: [String]) {
        #expect(ArgumentScanner<ValidateCommand>.command(for: arguments) == nil)
    }

    @Test func readsAPlainLineAsArgumentParserDoes() throws {
        let arguments = [
            "suites/", "--jobs", "20", "--var=port=8080", "--var", "token=a b", "-v", "--report-junit",
            Self.reportFolder + "/j.xml",
            "--tap-version=14", "--report-tap", Self.reportFolder + "/r.tap", "--tag", "smoke", "--exclude-tag=slow",
            "--shard", "2/4",
            "--timeout", "1.5s", "--wait-for", "30s", "--pinning", "publicKey", "--no-validate-domain", "--",
            "-odd.yaml",
        ]
        let fast = try #require(ArgumentScanner<RunCommand>.command(for: arguments))
        let full = try Self.fullParse(arguments, as: RunCommand.self)
        #expect(Self.values(of: fast) == Self.values(of: full))
        #expect(!Self.values(of: fast).contains("*definition*"), "every value is set: \(Self.values(of: fast))")
        #expect(fast.suites.paths == ["suites/", "-odd.yaml"])
        #expect(fast.jobs == 20)
        #expect(fast.suites.variables == ["port=8080", "token=a b"])
        #expect(fast.reports.tapVersion == 14)
        #expect(fast.requests.timeout?.duration == .milliseconds(1500))
        #expect(fast.security.pinning == .publicKey)
        #expect(fast.security.noValidateDomain)
    }

    @Test func readsAPlainValidateLineAsArgumentParserDoes() throws {
        let arguments = [
            "suites/", "--var=port=8080", "--var", "token=a b", "--variables-file", "vars.env", "--strict-spec",
            "--no-color", "--", "-odd.yaml", "--var",
        ]
        let fast = try #require(ArgumentScanner<ValidateCommand>.command(for: arguments))
        let full = try Self.fullParse(arguments, as: ValidateCommand.self)
        #expect(Self.values(of: fast) == Self.values(of: full))
        #expect(!Self.values(of: fast).contains("*definition*"), "every value is set: \(Self.values(of: fast))")
        #expect(fast.suites.paths == ["suites/", "-odd.yaml", "--var"])
        #expect(fast.suites.variables == ["port=8080", "token=a b"])
        #expect(fast.suites.validatedVariables?.map(\.name) == ["port", "token"])
        #expect(fast.suites.variablesFiles == ["vars.env"])
        #expect(fast.suites.spec.strictSpec)
        #expect(fast.suites.noColor)
        #expect(fast.suites.openapi == nil)
    }

    // MARK: - Generated lines

    /// A folder that exists and takes files: report paths are checked on the file system when they are parsed.
    static let reportFolder = FileManager.default.temporaryDirectory.path

    /// What `apitest` does when the scanner steps aside: swift-argument-parser from the root command.
    static func fullParse<Command: ScannableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        let command = try APITestCommand.parseAsRoot([type.configuration.commandName ?? "?"] + arguments)
        return try #require(command as? Command)
    }

    /// Every value of a parsed command, options and option groups, as text: swift-argument-parser's property
    /// wrappers describe their values.
    static func values(of command: some ScannableCommand) -> String {
        String(describing: command)
    }

    /// Valid values and invalid ones per option, by long name.
    static func values(readable file: String) -> [String: (valid: [String], invalid: [String])] {
        let pin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        return [
            "--var": (["a=1", "token=x y", "empty=", "u=ü"], ["novalue", "=x"]),
            "--variables-file": (["vars.env", "config/vars.yaml"], []),
            "--jobs": (["1", "20", "1000", "+5"], ["0", "1001", "x", "2.5"]),
            "--timeout": (["500ms", "10s", "1.5s", "2m", "3"], ["soon", "10 parsecs"]),
            "--connect-timeout": (["250ms", "2s"], ["never"]),
            "--max-response-size": (["0", "1048576", "200MB", "64MiB", "1.5GB", "512 kib"], ["big", "-1", "12XB"]),
            "--wait-for": (["30s", "1m"], ["later"]),
            "--report-junit": ([Self.reportFolder + "/junit.xml"], []),
            "--report-tap": ([Self.reportFolder + "/report.tap"], []),
            "--report-json": ([Self.reportFolder + "/report.json"], []),
            "--report-html": ([Self.reportFolder + "/report.html"], []),
            "--tap-version": (["13", "14"], ["12", "fourteen"]),
            "--filter": (["login", "^Users API › ", "(?i)admin"], ["(", "[z-a]"]),
            "--tag": (["smoke", "slow"], []),
            "--exclude-tag": (["slow", "flaky"], []),
            "--shard": (["1/2", "3/3", "1/1"], ["0/2", "4/3", "x"]),
            "--pinning": (["none", "publicKey", "certificate"], ["bogus", "PublicKey"]),
            "--pin": ([pin], ["md5//abc", "sha256//bm90IDMyIGJ5dGVz"]),
            "--certificate": ([file], ["/nonexistent/cert.pem"]),
            "--ca-file": ([file], ["/nonexistent/ca.pem"]),
            "--client-cert": ([file], ["/nonexistent/client.pem"]),
            "--client-key": ([file], ["/nonexistent/client.key"]),
            "--openapi": ([file], ["/nonexistent/api.yaml", directoryPath(of: file)]),
        ]
    }

    /// The folder that holds `file`: a path that is not a regular file.
    static func directoryPath(of file: String) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().path
    }

    @Test func agreesWithArgumentParserOnGeneratedRunLines() async throws {
        let (accepted, agreedOnErrors) = try await Self.compareOnGeneratedLines(of: RunCommand.self)
        #expect(accepted > 100, "most generated lines are plain: \(accepted)")
        #expect(agreedOnErrors > 20, "and many are invalid: \(agreedOnErrors)")
    }

    @Test func agreesWithArgumentParserOnGeneratedValidateLines() async throws {
        let (accepted, agreedOnErrors) = try await Self.compareOnGeneratedLines(of: ValidateCommand.self)
        #expect(accepted > 100, "most generated lines are plain: \(accepted)")
        #expect(agreedOnErrors > 20, "and many are invalid: \(agreedOnErrors)")
    }

    /// Both parsers on 300 generated lines of `command`: the same command when the scanner accepts one, and a
    /// reason of the scanner's own when it steps aside for a line swift-argument-parser accepts. Returns how many
    /// lines the scanner accepted and how many both refused.
    static func compareOnGeneratedLines<Command: ScannableCommand>(
        of command: Command.Type
    ) async throws -> (
        accepted: Int, agreedOnErrors: Int
    ) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-scan-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cert.pem").path
        try "not parsed at this stage".write(toFile: file, atomically: true, encoding: .utf8)
        let values = Self.values(readable: file)
        let options = Command.scannedOptions
        // A folder that exists is a suite path.
        let paths = ["a.yaml", "suites/", "dir with space/x.yml", "ü.yaml", directory.path]
        var generator = SplitMix64(seed: 2026)
        var accepted = 0
        var agreedOnErrors = 0
        for round in 0..<300 {
            // A debug-build parse takes milliseconds: let the tests running in parallel have the thread.
            await Task.yield()
            var arguments: [String] = []
            var plain = true
            var usedSingles = Set<Int>()
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let index = Int.random(in: 0..<options.count, using: &generator)
                let option = options[index]
                let name = option.names.randomElement(using: &generator)!
                let long = option.names.last!
                switch option.action {
                case .flag:
                    if !usedSingles.insert(index).inserted { plain = false }
                    if name.hasPrefix("--") && Int.random(in: 0..<20, using: &generator) == 0 {
                        arguments.append(name + "=" + ["", "true", "no"].randomElement(using: &generator)!)
                        plain = false
                    } else {
                        arguments.append(name)
                    }
                case .single, .repeating:
                    if case .single = option.action, !usedSingles.insert(index).inserted { plain = false }
                    // An option not listed yet is tried with a value most types read.
                    let choices = values[long] ?? (["1"], [])
                    var value = choices.valid.randomElement(using: &generator)!
                    if !choices.invalid.isEmpty && Int.random(in: 0..<10, using: &generator) == 0 {
                        value = choices.invalid.randomElement(using: &generator)!
                        plain = false
                    }
                    if Int.random(in: 0..<20, using: &generator) == 0 {
                        // Values swift-argument-parser reads its own way: the scanner must step aside.
                        value = ["", "-x", "--jobs", "-"].randomElement(using: &generator)!
                        plain = false
                    }
                    if name.hasPrefix("--") && Bool.random(using: &generator) {
                        arguments.append("\(name)=\(value)")
                    } else {
                        arguments += [name, value]
                    }
                }
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    arguments.append(paths.randomElement(using: &generator)!)
                }
            }
            if Int.random(in: 0..<8, using: &generator) != 0 {
                arguments.insert(paths.randomElement(using: &generator)!, at: 0)
            }
            if Int.random(in: 0..<10, using: &generator) == 0 {
                arguments += ["--"] + ["-dashed.yaml", "--jobs", "-v", "--", "plain.yaml"].shuffled(using: &generator)
            }
            let fast = ArgumentScanner<Command>.command(for: arguments)
            let full = try? Self.fullParse(arguments, as: Command.self)
            if let fast {
                accepted += 1
                #expect(Self.values(of: fast) == full.map { Self.values(of: $0) }, "round \(round): \(arguments)")
            } else if full == nil {
                agreedOnErrors += 1
            } else {
                // The scanner may step aside only for a reason of its own.
                #expect(!plain, "round \(round): the scanner declined a plain line \(arguments)")
            }
        }
        return (accepted, agreedOnErrors)
    }
}
