import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `import curl` and the files a command line names: a file curl sends as it is stays a file the suite names
/// (`bodyFile`, a multipart `file` part); one whose content must be written into the suite (`-d @file` with line
/// breaks, data joined, `--data-urlencode n@file`, `-F n=<file`) is written with a note naming it; and a file
/// outside the folder curl runs in (symbolic links resolved) is never read or named without a note saying so.
struct CurlFileContentTests {
    /// An importer working in a new folder holding `body.json` (with a line break), `flat.txt` (without) and a link
    /// `link.txt` to a file outside it; and that outside file's path.
    static func setUp() throws -> (CurlImporter, folder: String, outside: String) {
        let (importer, folder) = try CurlImporterTests.importer()
        let elsewhere = try SuiteDocumentRendererTests.folder()
        let outside = elsewhere + "/private.txt"
        try Data("outside-secret".utf8).write(to: URL(fileURLWithPath: outside))
        try Data("flat".utf8).write(to: URL(fileURLWithPath: folder + "/flat.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.txt", withDestinationPath: outside)
        return (importer, folder, outside)
    }

    @Test func aFileSentAsItIsIsNamedNotCopied() throws {
        let (importer, folder, outside) = try Self.setUp()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: (outside as NSString).deletingLastPathComponent)
        }
        let suite = try importer.importTexts(["curl --data-binary @body.json http://a/x; curl -d @flat.txt http://a/y"])
        guard case .file(let path, _)? = suite.tests[0].request.body,
            case .file(let flat, _)? = suite.tests[1].request.body
        else {
            Issue.record("not bodyFile: \(suite.tests.map(\.request.body))")
            return
        }
        #expect(path == "../body.json")
        #expect(flat == "../flat.txt")
        #expect(suite.allNotes.isEmpty, "\(suite.allNotes.map(\.rendered))")
    }

    @Test func aFileWhoseContentIsWrittenIsNoted() throws {
        let (importer, folder, outside) = try Self.setUp()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: (outside as NSString).deletingLastPathComponent)
        }
        let suite = try importer.importTexts([
            "curl -d @body.json http://a/x; curl -d a=1 --data-binary @flat.txt http://a/y; "
                + "curl --data-urlencode n@flat.txt http://a/z; curl -F 'f=<flat.txt' http://a/w"
        ])
        let notes = suite.tests.map { $0.notes.map(\.rendered) }
        #expect(
            notes[0] == [
                "argument 1: the content of the file body.json is written into the suite (curl removes its line "
                    + "breaks); the suite does not read the file again"
            ])
        #expect(
            notes[1] == [
                "argument 3: the content of the file flat.txt is written into the suite (curl joins it with the "
                    + "other data); the suite does not read the file again"
            ])
        #expect(
            notes[2].first?.contains(
                "the content of the file flat.txt is written into the suite (curl sends it URL-encoded)") == true)
        #expect(
            notes[3].first?.contains(
                "the content of the file flat.txt is written into the suite (curl sends it as the value of the field 'f')"
            ) == true)
    }

    @Test func aFileOutsideTheFolderIsSaidToBe() throws {
        let (importer, folder, outside) = try Self.setUp()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: (outside as NSString).deletingLastPathComponent)
        }
        let suite = try importer.importTexts([
            "curl -d @link.txt -d b=2 http://a/x; curl --data-binary @\(outside) http://a/y; "
                + "curl -F 'f=@link.txt' http://a/z"
        ])
        let notes = suite.tests.map { $0.notes.map(\.rendered) }
        #expect(
            notes[0] == [
                "argument 1: the content of the file link.txt, outside the folder curl runs in (\(folder)), is "
                    + "written into the suite (curl joins it with the other data); the suite does not read the file "
                    + "again"
            ])
        #expect(
            notes[1] == [
                "argument 1: the suite sends the file \(outside), outside the folder curl runs in (\(folder)), as "
                    + "the body, as curl does"
            ])
        #expect(
            notes[2] == [
                "argument 1: the suite sends the file link.txt, outside the folder curl runs in (\(folder)), as the "
                    + "part 'f', as curl does"
            ])
    }
}
