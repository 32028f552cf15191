import APITestSecurity
import APITestTestSupport
import ArgumentParser
import Foundation
import Testing

@testable import APITestCLI

/// `apitest run`'s quick argument scan must mean exactly what swift-argument-parser means, or step aside.
@Suite struct RunArgumentScannerTests {
    // MARK: - The table against swift-argument-parser's own description

    /// One argument of `run --experimental-dump-help`.
    struct DumpedArgument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var names: [Name]?
        var isRepeating: Bool
    }

    struct Dump: Decodable {
        struct Command: Decodable { var arguments: [DumpedArgument] }
        var command: Command
    }

    static func dumpedArguments() throws -> [DumpedArgument] {
        var text: String?
        do {
            _ = try RunCommand.parseAsRoot(["--experimental-dump-help"])
        } catch {
            text = RunCommand.fullMessage(for: error)
        }
        let json = try #require(text)
        return try JSONDecoder().decode(Dump.self, from: Data(json.utf8)).command.arguments
    }

    @Test func knowsEveryOptionOfRunUnderEverySpellingAndKind() throws {
        var expected: [String: String] = [:]
        for argument in try Self.dumpedArguments() where argument.kind != "positional" {
            let spellings = (argument.names ?? []).map { $0.kind == "short" ? "-\($0.name)" : "--\($0.name)" }
            // swift-argument-parser's own flags: the scanner leaves them to it.
            if spellings.contains("--help") || spellings.contains("--version") { continue }
            let kind = argument.kind == "flag" ? "flag" : argument.isRepeating ? "repeating" : "single"
            for spelling in spellings { expected[spelling] = kind }
        }
        var actual: [String: String] = [:]
        for option in RunArgumentScanner.options {
            let kind: String
            switch option.action {
            case .flag: kind = "flag"
            case .single: kind = "single"
            case .repeating: kind = "repeating"
            }
            for name in option.names { actual[name] = kind }
        }
        #expect(expected.count > 25, "the dump lists run's options")
        #expect(actual == expected)
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
        #expect(RunArgumentScanner.command(for: arguments) == nil)
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
        let fast = try #require(RunArgumentScanner.command(for: arguments))
        let full = try Self.fullParse(arguments)
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

    // MARK: - Generated lines

    /// A folder that exists and takes files: report paths are checked on the file system when they are parsed.
    static let reportFolder = FileManager.default.temporaryDirectory.path

    /// What `apitest` does when the scanner steps aside: swift-argument-parser from the root command.
    static func fullParse(_ arguments: [String]) throws -> RunCommand {
        let command = try APITestCommand.parseAsRoot(["run"] + arguments)
        return try #require(command as? RunCommand)
    }

    /// Every value of a parsed `run`, options and option groups, as text: swift-argument-parser's property
    /// wrappers describe their values.
    static func values(of command: RunCommand) -> String {
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
        ]
    }

    @Test func agreesWithArgumentParserOnGeneratedLines() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-scan-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cert.pem").path
        try "not parsed at this stage".write(toFile: file, atomically: true, encoding: .utf8)
        let values = Self.values(readable: file)
        let options = RunArgumentScanner.options
        let paths = ["a.yaml", "suites/", "dir with space/x.yml", "ü.yaml"]
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
            let fast = RunArgumentScanner.command(for: arguments)
            let full = try? Self.fullParse(arguments)
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
        #expect(accepted > 100, "most generated lines are plain: \(accepted)")
        #expect(agreedOnErrors > 20, "and many are invalid: \(agreedOnErrors)")
    }
}
