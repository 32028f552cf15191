import APITestReporting
import APITestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Report destinations")
struct ReportDestinationTests {
    let directory: URL

    init() throws {
        directory = try ReportFixtures.temporaryDirectory()
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The temporary folder with its symbolic links resolved.
    func canonicalFolder() -> String {
        guard let resolved = realpath(directory.path, nil) else { return directory.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    @Test("a new or existing regular file is replaced atomically at its own path")
    func regularFiles() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let new = try ReportDestination.resolve(path("new.xml"))
        #expect(new.method == .replace)
        #expect(new.target == canonicalFolder() + "/new.xml")
        try "old".write(toFile: path("old.xml"), atomically: true, encoding: .utf8)
        let old = try ReportDestination.resolve(path("old.xml"))
        #expect(old.method == .replace)
        try old.write(Array("new".utf8))
        #expect(try String(contentsOfFile: path("old.xml"), encoding: .utf8) == "new")
    }

    @Test("character devices, FIFOs and links to them are written through, never replaced")
    func writeThrough() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let null = try ReportDestination.resolve("/dev/null")
        #expect(null.method == .writeThrough)
        try null.write(Array("discarded".utf8))
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

        #expect(mkfifo(path("pipe"), 0o600) == 0)
        #expect(try ReportDestination.resolve(path("pipe")).method == .writeThrough)
        #expect(symlink("/dev/null", path("null-link")) == 0)
        let link = try ReportDestination.resolve(path("null-link"))
        #expect(link.method == .writeThrough)
        #expect(link.identity == null.identity)
        try link.write(Array("x".utf8))
        #expect(lstat(path("null-link"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }

    @Test("a link to a regular file (or to none yet) is followed: the target is replaced, the link stays")
    func linksToFiles() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        try "old".write(toFile: path("out/report.json"), atomically: true, encoding: .utf8)
        #expect(symlink("out/report.json", path("latest.json")) == 0)
        let destination = try ReportDestination.resolve(path("latest.json"))
        #expect(destination.method == .replace)
        #expect(destination.target.hasSuffix("/out/report.json"))
        #expect(destination.identity == (try ReportDestination.resolve(path("out/report.json"))).identity)
        try destination.write(Array("new".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("latest.json")) == "out/report.json")
        #expect(try String(contentsOfFile: path("out/report.json"), encoding: .utf8) == "new")

        #expect(symlink("out/later.json", path("dangling.json")) == 0)
        let dangling = try ReportDestination.resolve(path("dangling.json"))
        #expect(dangling.target.hasSuffix("/out/later.json"))
        try dangling.write(Array("made".utf8))
        #expect(try String(contentsOfFile: path("out/later.json"), encoding: .utf8) == "made")
    }

    @Test("what cannot be written is a problem before anything is written")
    func problems() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try "x".write(toFile: path("file"), atomically: true, encoding: .utf8)
        let cases: [(String, ReportDestination.Problem.Kind)] = [
            (path("missing/r.xml"), .folderMissing(path("missing"))),
            (path("file/r.xml"), .folderNotDirectory(path("file"))),
            (directory.path, .directory),
            (directory.path + "/dir/", .notAFileName),
            ("", .notAFileName),
        ]
        for (given, kind) in cases {
            #expect(throws: ReportDestination.Problem(path: given, kind: kind)) {
                try ReportDestination.resolve(given)
            }
        }
        if getuid() != 0 {
            #expect(chmod(path("file"), 0o444) == 0)
            #expect(throws: ReportDestination.Problem(path: path("file"), kind: .notWritable)) {
                try ReportDestination.resolve(path("file"))
            }
        }
    }
}
