import Foundation
import Testing

/// The shell completions `make install` and the Debian package install (issue 37): swift-argument-parser's scripts
/// for bash, zsh and fish parse in their shell, name every command and the flags, and complete file arguments (suite
/// paths, report files), which the declarations mark with `completion: .file(...)`.
@Suite struct CompletionScriptTests {
    static let commands = ["run", "validate", "load", "import", "generate", "export", "pin-check", "merge", "list"]
    static let flags = ["--jobs", "--report-junit", "--variables-file", "--filter", "--version"]

    /// A temporary folder holding a suite, a text file and a sub-folder, to complete file names in.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-completion-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("suite.yaml"))
        try Data().write(to: folder.appendingPathComponent("notes.txt"))
        return folder
    }

    /// `apitest --generate-completion-script SHELL`, written into `folder`.
    func script(_ shell: String, in folder: URL) async throws -> URL {
        let run = try await runProcess(try TestBinaries.url("apitest"), ["--generate-completion-script", shell])
        #expect(run.exitCode == 0, "\(shell): \(run.stderr)")
        let file = folder.appendingPathComponent("apitest.\(shell)")
        try run.stdout.write(to: file, atomically: true, encoding: .utf8)
        for command in Self.commands {
            #expect(run.stdout.contains(command), "the \(shell) script lacks the command \(command)")
        }
        for flag in Self.flags {
            #expect(run.stdout.contains(flag.dropFirst(2)), "the \(shell) script lacks the flag \(flag)")
        }
        return file
    }

    @Test func bashCompletesCommandsFlagsAndFiles() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try await script("bash", in: folder)
        let bash = try TestBinaries.tool("bash")
        #expect(try await runProcess(bash, ["-n", script.path]).exitCode == 0)
        // What bash offers for the last word of a command line, as `complete -F _apitest apitest` calls it.
        let harness = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _apitest apitest "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        func offers(_ words: [String]) async throws -> [String] {
            let run = try await runProcess(
                bash, ["-c", harness, "bash", script.path, "apitest"] + words, currentDirectory: folder)
            #expect(run.exitCode == 0, "\(words): \(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try await offers(["pi"]) == ["pin-check"])
        #expect(try await offers(["run", "--jo"]) == ["--jobs"])
        #expect(try await offers(["import", ""]).contains("curl"))
        // Suite paths: YAML files and folders, not other files; a report file: any file.
        #expect(Set(try await offers(["run", ""])) == ["suite.yaml", "sub"])
        #expect(try await offers(["validate", "su"]).contains("suite.yaml"))
        #expect(try await offers(["run", "a.yaml", "--report-json", "no"]) == ["notes.txt"])
        #expect(try await offers(["generate", "openapi", "spec.yaml", "-o", ""]) == ["sub"])
    }

    @Test func zshScriptParses() async throws {
        guard let zsh = try? TestBinaries.tool("zsh") else {
            Issue.record("zsh is not installed (apt-get install zsh)")
            return
        }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try await script("zsh", in: folder)
        let check = try await runProcess(zsh, ["-n", script.path])
        #expect(check.exitCode == 0, "\(check.stderr)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef apitest"))
        #expect(text.contains(#"'*:paths:_files -g '\''*.yaml *.yml'\'''"#), "suite paths are YAML files")
        #expect(text.contains("--report-junit[Write a JUnit XML report (one testcase per test) to FILE.]:file:_files"))
    }

    @Test func fishCompletesCommandsFlagsAndFiles() async throws {
        guard let fish = try? TestBinaries.tool("fish") else {
            Issue.record("fish is not installed (apt-get install fish)")
            return
        }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try await script("fish", in: folder)
        #expect(try await runProcess(fish, ["-n", script.path]).exitCode == 0)
        func offers(_ line: String) async throws -> [String] {
            let run = try await runProcess(
                fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script.path, line],
                currentDirectory: folder)
            #expect(run.exitCode == 0, "\(line): \(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try await offers("apitest pi") == ["pin-check"])
        #expect(try await offers("apitest run --jo") == ["--jobs"])
        #expect(Set(try await offers("apitest run s")) == ["suite.yaml", "sub/"])
        #expect(try await offers("apitest run a.yaml --report-json n") == ["notes.txt"])
    }
}
