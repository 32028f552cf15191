import Foundation
import Testing

/// `make install` (scripts/install.sh) puts each shell's completion where that shell looks for the prefix in use
/// (issue 37), checked with the real shells of this machine in a clean environment (`env -i`, a temporary HOME,
/// XDG_DATA_DIRS unset as on a console or ssh login): zsh's default `$fpath`, fish's `$fish_complete_path` and
/// bash-completion's loader. A prefix a shell does not search gets one line saying how to enable it, and following
/// that line makes the shell complete `apitest ru` to `run`.
@Suite(.serialized) struct InstalledCompletionTests {
    /// The repository's root, from this file's path (`<root>/Tests/IntegrationTests/<file>`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// bash-completion's loader (Debian's bash-completion package), when installed.
    static let bashCompletionLoader = "/usr/share/bash-completion/bash_completion"

    /// A temporary folder with an empty home folder in it.
    struct Work {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-completions-\(UUID())")
        var home: URL { folder.appendingPathComponent("home") }

        init() throws {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    // MARK: - Running things in a clean environment

    /// Runs `tool` under `env -i` with only HOME, PATH (`bin` first, then the system's) and TMPDIR, plus `extra`.
    func clean(
        _ tool: URL, _ arguments: [String], home: URL, bin: String? = nil, extra: [String: String] = [:]
    ) async throws -> ProcessResult {
        let path = (bin.map { [$0] } ?? []) + ["/usr/local/bin", "/usr/bin", "/bin"]
        var variables = [
            "HOME=\(home.path)", "PATH=\(path.joined(separator: ":"))",
            "TMPDIR=\(FileManager.default.temporaryDirectory.path)",
        ]
        variables += extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try await runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["-i"] + variables + [tool.path] + arguments, timeout: .seconds(90))
    }

    /// scripts/install.sh with the debug binary, in a clean environment whose HOME is `work.home`.
    func install(
        _ work: Work, prefix: String, destdir: URL? = nil, uninstall: Bool = false
    ) async throws
        -> ProcessResult
    {
        var options = ["--prefix", prefix]
        if let destdir { options += ["--destdir", destdir.path] }
        options += uninstall ? ["--uninstall"] : ["--binary", try TestBinaries.url("apitest").path]
        let run = try await clean(
            Self.repository.appendingPathComponent("scripts/install.sh"), options, home: work.home)
        try #require(run.exitCode == 0, "install.sh \(options): \(run.stderr)")
        return run
    }

    /// The quoted command of the install's line "install: SHELL does not search ...: add '<command>' to ...".
    func hint(_ shell: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("install: \(shell) does not search ") }
            .flatMap { $0.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first }
            .map(String.init)
    }

    // MARK: - The shells

    /// zsh's `$fpath` as a new zsh has it (not interactive: the system's zshenv only, no ~/.zshrc).
    func zshFpath(_ work: Work) async throws -> [String] {
        let zsh = try TestBinaries.tool("zsh")
        let run = try await clean(zsh, ["-c", "print -l -- $fpath"], home: work.home)
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// What zsh's completion system registers for `apitest` after `setup` (compinit reads every `#compdef` of
    /// `$fpath`): `_apitest` when it found the completion.
    func zshCompletionFunction(_ work: Work, setup: String) async throws -> String {
        let zsh = try TestBinaries.tool("zsh")
        let script =
            "\(setup)\nautoload -Uz compinit\ncompinit -u -d \"$HOME/.zcompdump\"\nprint -r -- $_comps[apitest]"
        let run = try await clean(zsh, ["-c", script], home: work.home)
        #expect(run.exitCode == 0, "zsh: \(run.stderr)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// fish's `$fish_complete_path` as a new fish has it (share/config.fish sets it; HOME has no config).
    func fishCompletePath(_ work: Work) async throws -> [String] {
        let fish = try TestBinaries.tool("fish")
        let run = try await clean(fish, ["-c", "printf '%s\\n' $fish_complete_path"], home: work.home)
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// What fish offers for `apitest ru` after `setup`, with `bin` (where apitest is) on PATH.
    func fishOffers(_ work: Work, bin: String, setup: String = "") async throws -> [String] {
        let fish = try TestBinaries.tool("fish")
        let run = try await clean(fish, ["-c", "\(setup)\ncomplete -C 'apitest ru'"], home: work.home, bin: bin)
        #expect(run.exitCode == 0, "fish: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    /// bash after `setup`: `complete -p apitest` and what `_apitest` offers for `apitest ru`.
    func bashCompletes(
        _ work: Work, setup: String, extra: [String: String] = [:]
    ) async throws -> (
        spec: String, offers: [String]
    ) {
        let bash = try TestBinaries.tool("bash")
        let script = """
            \(setup)
            complete -p apitest || exit 3
            COMP_WORDS=(apitest ru); COMP_CWORD=1; COMP_LINE="apitest ru"; COMP_POINT=${#COMP_LINE}
            _apitest apitest ru apitest
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try await clean(bash, ["-c", script], home: work.home, extra: extra)
        #expect(run.exitCode == 0, "bash: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()))
    }

    /// bash-completion's loader loading apitest's completion on demand, as for the first Tab on `apitest`.
    var bashLoader: String? {
        FileManager.default.fileExists(atPath: Self.bashCompletionLoader)
            ? "source \(Self.bashCompletionLoader)\n__load_completion apitest" : nil
    }

    // MARK: - Prefixes

    /// PREFIX=$HOME/.local: fish and bash-completion search it (their user data folders), zsh searches no home
    /// folder, so the install says to add it to fpath, and doing so works. The old zsh folder (vendor-completions)
    /// and the hint are checked as well.
    @Test(.timeLimit(.minutes(3))) func aHomePrefixIsFoundByFishAndBashAndZshIsToldHow() async throws {
        let work = try Work()
        defer { work.remove() }
        let prefix = work.home.appendingPathComponent(".local").path
        let output = try await install(work, prefix: prefix).stdout
        #expect(hint("fish", in: output) == nil, "\(output)")
        #expect(hint("bash-completion", in: output) == nil, "\(output)")

        let fishFolder = "\(prefix)/share/fish/vendor_completions.d"
        #expect(try await fishCompletePath(work).contains(fishFolder))
        #expect(try await fishOffers(work, bin: "\(prefix)/bin") == ["run"])

        let bashFile = "\(prefix)/share/bash-completion/completions/apitest"
        #expect(FileManager.default.fileExists(atPath: bashFile))
        if let loader = bashLoader {
            let bash = try await bashCompletes(work, setup: loader)
            #expect(bash.spec.contains("-F _apitest apitest"), "\(bash.spec)")
            #expect(bash.offers == ["run"])
        }

        let zshFolder = "\(prefix)/share/zsh/site-functions"
        #expect(FileManager.default.fileExists(atPath: "\(zshFolder)/_apitest"))
        #expect(!(try await zshFpath(work).contains(zshFolder)))
        let zshHint = try #require(hint("zsh", in: output), "no zsh line in: \(output)")
        #expect(zshHint == "fpath=(\(zshFolder) $fpath)")
        #expect(try await zshCompletionFunction(work, setup: zshHint) == "_apitest")
        #expect(try await zshCompletionFunction(work, setup: "") == "", "the default fpath has no apitest")
    }

    /// PREFIX=/usr/local (`sudo make install`), staged under a DESTDIR: zsh's default fpath has
    /// /usr/local/share/zsh/site-functions (not vendor-completions, where the old install put it), bash-completion
    /// searches /usr/local/share, and fish, which searches /usr/local/share only under XDG_DATA_DIRS, gets a copy in
    /// /etc/fish/completions (on its default path) when fish is installed there. Uninstall removes them all.
    @Test(.timeLimit(.minutes(3))) func usrLocalIsWhereZshBashAndFishLook() async throws {
        let work = try Work()
        defer { work.remove() }
        let root = work.folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("etc/fish"), withIntermediateDirectories: true)
        let output = try await install(work, prefix: "/usr/local", destdir: root).stdout
        #expect(!output.contains("does not search"), "\(output)")
        let staged = root.path

        let zshFolder = "/usr/local/share/zsh/site-functions"
        #expect(try await zshFpath(work).contains(zshFolder))
        #expect(FileManager.default.fileExists(atPath: "\(staged)\(zshFolder)/_apitest"))
        #expect(!FileManager.default.fileExists(atPath: "\(staged)/usr/local/share/zsh/vendor-completions/_apitest"))
        #expect(try await zshCompletionFunction(work, setup: "fpath=(\(staged)\(zshFolder) $fpath)") == "_apitest")

        let fishFolder = "/etc/fish/completions"
        #expect(try await fishCompletePath(work).contains(fishFolder))
        #expect(!(try await fishCompletePath(work).contains("/usr/local/share/fish/vendor_completions.d")))
        #expect(FileManager.default.fileExists(atPath: "\(staged)\(fishFolder)/apitest.fish"))
        #expect(
            try await fishOffers(
                work, bin: "\(staged)/usr/local/bin", setup: "set -p fish_complete_path \(staged)\(fishFolder)")
                == ["run"])

        let bashFile = "\(staged)/usr/local/share/bash-completion/completions/apitest"
        #expect(FileManager.default.fileExists(atPath: bashFile))
        if let loader = bashLoader {
            // The loader's default XDG_DATA_DIRS is /usr/local/share:/usr/share; here the staged copies of both.
            let dirs = "\(staged)/usr/local/share:\(staged)/usr/share"
            let bash = try await bashCompletes(work, setup: loader, extra: ["XDG_DATA_DIRS": dirs])
            #expect(bash.spec.contains("-F _apitest apitest"), "\(bash.spec)")
            #expect(bash.offers == ["run"])
        }

        _ = try await install(work, prefix: "/usr/local", destdir: root, uninstall: true)
        let installed = [
            "\(zshFolder)/_apitest", "\(fishFolder)/apitest.fish",
            "/usr/local/share/fish/vendor_completions.d/apitest.fish",
        ]
        for file in installed {
            #expect(!FileManager.default.fileExists(atPath: "\(staged)\(file)"), "\(file) left after uninstall")
        }
    }

    /// PREFIX=/usr (the Debian package's layout), staged: Debian's zsh searches /usr/share/zsh/vendor-completions,
    /// fish /usr/share/fish/vendor_completions.d; nothing goes to /etc, and no hint is printed.
    @Test(.timeLimit(.minutes(3))) func usrIsWhereDebiansShellsLook() async throws {
        let work = try Work()
        defer { work.remove() }
        let root = work.folder.appendingPathComponent("root")
        let output = try await install(work, prefix: "/usr", destdir: root).stdout
        #expect(!output.contains("does not search"), "\(output)")
        let staged = root.path
        let zshFolder = "/usr/share/zsh/vendor-completions"
        #expect(try await zshFpath(work).contains(zshFolder))
        #expect(FileManager.default.fileExists(atPath: "\(staged)\(zshFolder)/_apitest"))
        let fishFolder = "/usr/share/fish/vendor_completions.d"
        #expect(try await fishCompletePath(work).contains(fishFolder))
        #expect(FileManager.default.fileExists(atPath: "\(staged)\(fishFolder)/apitest.fish"))
        #expect(FileManager.default.fileExists(atPath: "\(staged)/usr/share/bash-completion/completions/apitest"))
        #expect(!FileManager.default.fileExists(atPath: "\(staged)/etc"))
    }

    /// A prefix no shell searches (/opt/... style): one line per shell saying how to enable its completion, and each
    /// line, followed, makes that shell complete `apitest ru` to `run`.
    @Test(.timeLimit(.minutes(3))) func aPrefixNoShellSearchesSaysHowToEnableEach() async throws {
        let work = try Work()
        defer { work.remove() }
        let prefix = work.folder.appendingPathComponent("opt").path
        let output = try await install(work, prefix: prefix).stdout

        let zshHint = try #require(hint("zsh", in: output), "\(output)")
        #expect(zshHint == "fpath=(\(prefix)/share/zsh/site-functions $fpath)")
        #expect(try await zshCompletionFunction(work, setup: zshHint) == "_apitest")

        let fishHint = try #require(hint("fish", in: output), "\(output)")
        #expect(fishHint == "set -p fish_complete_path \(prefix)/share/fish/vendor_completions.d")
        #expect(try await fishOffers(work, bin: "\(prefix)/bin") == [], "fish does not find it by itself")
        #expect(try await fishOffers(work, bin: "\(prefix)/bin", setup: fishHint) == ["run"])

        let bashHint = try #require(hint("bash-completion", in: output), "\(output)")
        #expect(bashHint == "source \(prefix)/share/bash-completion/completions/apitest")
        let bash = try await bashCompletes(work, setup: bashHint)
        #expect(bash.spec.contains("-F _apitest apitest"), "\(bash.spec)")
        #expect(bash.offers == ["run"])
        #expect(output.split(separator: "\n").count == 4, "the install line and one line per shell: \(output)")
    }
}
