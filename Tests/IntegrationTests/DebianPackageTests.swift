import Foundation
import Testing

/// `make deb` (issue 37), checked in bounded time without a second release build: `scripts/make-deb.sh` packages the
/// debug binary the tests run, and the package is read with `dpkg-deb --info/--contents`, checked with lintian,
/// installed into a temporary root with dpkg (its own database, no root needed) and run from there, then removed.
@Suite(.serialized) struct DebianPackageTests {
    /// The repository's root, from this file's path (`<root>/Tests/IntegrationTests/DebianPackageTests.swift`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What the package must install, besides the folders that hold them.
    static let files = [
        "usr/bin/apitest",
        "usr/share/bash-completion/completions/apitest",
        "usr/share/zsh/vendor-completions/_apitest",
        "usr/share/fish/vendor_completions.d/apitest.fish",
        "usr/share/man/man1/apitest.1.gz",
        "usr/share/apitest/apitest.schema.json",
        "usr/share/doc/apitest/README.md",
        "usr/share/doc/apitest/docs/suite-format.md",
        "usr/share/doc/apitest/copyright",
        "usr/share/doc/apitest/changelog.Debian.gz",
    ]

    /// A tool on PATH, or nil (the test then records why it cannot run).
    func tool(_ name: String) -> URL? { try? TestBinaries.tool(name) }

    @Test(.timeLimit(.minutes(5))) func packagesInstallsRunsAndRemoves() async throws {
        for name in ["dpkg-deb", "dpkg-shlibdeps", "dpkg", "lintian"] where tool(name) == nil {
            Issue.record("\(name) is missing: scripts/install-deps.sh installs dpkg-dev and lintian")
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-deb-\(UUID())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let binary = try TestBinaries.url("apitest")
        let version = try await runProcess(binary, ["--version"])
        let upstream = try #require(version.stdout.split(separator: "\n").first?.split(separator: " ").last)

        // Build: gzip rather than xz (the debug binary is large); the debug binary links the Swift toolchain's
        // libraries, which no Debian package owns.
        let make = try await runProcess(
            Self.repository.appendingPathComponent("scripts/make-deb.sh"),
            [
                "--binary", binary.path, "--output", work.path, "--compression", "gzip",
                "--allow-unpackaged-libraries",
            ], timeout: .seconds(180))
        try #require(make.exitCode == 0, "make-deb failed: \(make.stderr.suffix(3000))")
        let deb = make.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try await runProcess(try #require(tool("dpkg")), ["--print-architecture"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb == work.appendingPathComponent("apitest_\(upstream)-1_\(arch).deb").path)

        // The control fields: the binary's version, and Depends from dpkg-shlibdeps (plus the dlopened libxml2).
        let dpkgDeb = try #require(tool("dpkg-deb"))
        let info = try await runProcess(dpkgDeb, ["--info", deb])
        #expect(info.exitCode == 0, "\(info.stderr)")
        #expect(info.stdout.contains(" Package: apitest\n"))
        #expect(info.stdout.contains(" Version: \(upstream)-1\n"), "\(info.stdout)")
        #expect(info.stdout.contains(" Architecture: \(arch)\n"))
        let depends = try await runProcess(dpkgDeb, ["--field", deb, "Depends"]).stdout
        for package in ["libc6", "libcurl4", "libssl3", "libyaml-0-2", "libmimalloc2.0", "libxml2"] {
            #expect(
                depends.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(package) },
                "Depends lacks \(package): \(depends)")
        }

        // The files, with their modes.
        let contents = try await runProcess(dpkgDeb, ["--contents", deb])
        #expect(contents.exitCode == 0)
        let listed = contents.stdout.split(separator: "\n").map { line -> (mode: String, path: String) in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return (String(fields.first ?? ""), String(fields.last ?? "").replacingOccurrences(of: "./", with: ""))
        }
        for file in Self.files {
            let entry = listed.first { $0.path == file }
            #expect(entry != nil, "the package lacks \(file)")
            let mode = file == "usr/bin/apitest" ? "-rwxr-xr-x" : "-rw-r--r--"
            #expect(entry?.mode == mode, "\(file): \(entry?.mode ?? "missing")")
        }
        #expect(contents.stdout.contains("root/root"), "files belong to root: \(contents.stdout.prefix(300))")

        // lintian: no error. A debug binary has the Swift toolchain's RUNPATH (custom-library-search-path); the
        // release binary, which links the Swift runtime statically, has none.
        let lintian = try await runProcess(
            try #require(tool("lintian")), ["--no-tag-display-limit", deb], timeout: .seconds(120))
        let errors = lintian.stdout.split(separator: "\n").filter {
            $0.hasPrefix("E:") && !($0.contains("custom-library-search-path") && $0.contains("/lib/swift/linux"))
        }
        #expect(errors.isEmpty, "lintian errors: \(errors)")
        #expect(!lintian.stdout.contains("bash-completion-with-hashbang"), "\(lintian.stdout)")

        // Installed with dpkg into an empty root with a database of its own, the binary runs from there.
        let root = work.appendingPathComponent("root")
        for folder in ["var/lib/dpkg/info", "var/lib/dpkg/updates"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data().write(to: root.appendingPathComponent("var/lib/dpkg/status"))
        let dpkg = try #require(tool("dpkg"))
        let common = ["--root=\(root.path)", "--force-not-root", "--force-script-chrootless"]
        let install = try await runProcess(dpkg, common + ["--force-depends", "--install", deb])
        #expect(install.exitCode == 0, "dpkg --install: \(install.stderr.suffix(2000))")
        let installed = try await runProcess(root.appendingPathComponent("usr/bin/apitest"), ["--version"])
        #expect(installed.exitCode == 0, "\(installed.stderr)")
        #expect(installed.stdout == version.stdout, "the installed binary is the packaged one: \(installed.stdout)")
        let help = try await runProcess(root.appendingPathComponent("usr/bin/apitest"), ["run", "--help"])
        #expect(help.stdout.contains("--report-junit"))
        let man = try Data(contentsOf: root.appendingPathComponent("usr/share/man/man1/apitest.1.gz"))
        #expect(man.starts(with: [0x1f, 0x8b]), "the man page is gzipped")

        let remove = try await runProcess(dpkg, common + ["--purge", "apitest"])
        #expect(remove.exitCode == 0, "dpkg --purge: \(remove.stderr.suffix(2000))")
        let left = FileManager.default.enumerator(atPath: root.appendingPathComponent("usr").path)?
            .compactMap { $0 as? String }.filter {
                var isFolder: ObjCBool = false
                FileManager.default.fileExists(
                    atPath: root.appendingPathComponent("usr/\($0)").path, isDirectory: &isFolder)
                return !isFolder.boolValue
            }
        #expect(left?.isEmpty ?? true, "files left after purge: \(left ?? [])")
    }

    /// `make install` / `make uninstall` (scripts/install.sh) with a DESTDIR: the same files under the prefix, the
    /// installed binary runs, and uninstall leaves no file behind.
    @Test(.timeLimit(.minutes(2))) func installAndUninstallUnderAPrefix() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-install-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        let script = Self.repository.appendingPathComponent("scripts/install.sh")
        let binary = try TestBinaries.url("apitest")
        let options = ["--prefix", "/usr/local", "--destdir", work.path]
        let install = try await runProcess(script, options + ["--binary", binary.path], timeout: .seconds(90))
        try #require(install.exitCode == 0, "install: \(install.stderr)")
        for file in Self.files where !file.hasSuffix("copyright") && !file.hasSuffix("changelog.Debian.gz") {
            // zsh searches site-functions under /usr/local (vendor-completions is Debian's folder under /usr).
            let local = file.replacingOccurrences(of: "usr/", with: "usr/local/")
                .replacingOccurrences(of: "zsh/vendor-completions", with: "zsh/site-functions")
            let path = work.appendingPathComponent(local).path
            #expect(FileManager.default.fileExists(atPath: path), "install lacks \(path)")
        }
        let installed = work.appendingPathComponent("usr/local/bin/apitest")
        #expect(try await runProcess(installed, ["--version"]).stdout.hasPrefix("apitest "))
        let completion = try String(
            contentsOf: work.appendingPathComponent("usr/local/share/bash-completion/completions/apitest"),
            encoding: .utf8)
        #expect(!completion.hasPrefix("#!"), "a sourced completion script has no #! line")
        #expect(completion.contains("complete -o filenames -F _apitest apitest"))

        let uninstall = try await runProcess(script, options + ["--uninstall"])
        #expect(uninstall.exitCode == 0, "uninstall: \(uninstall.stderr)")
        let left = FileManager.default.enumerator(atPath: work.path)?.compactMap { $0 as? String }.filter {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: work.appendingPathComponent($0).path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }
        #expect(left?.isEmpty ?? true, "files left after uninstall: \(left ?? [])")
    }
}
