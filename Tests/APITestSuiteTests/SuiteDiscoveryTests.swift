import Foundation
import Testing

@testable import APITestSuite

@Suite("Suite discovery")
struct SuiteDiscoveryTests {
    @Test func findsSuiteFilesRecursivelyInSortedOrder() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for file in [
            "b.yaml", "a.yml", "notes.txt", "sub/z.yaml", "sub/deeper/c.yaml", ".hidden.yaml",
            ".git/config.yaml", "sub/x.json",
        ] {
            try writeFile("tests: []", to: file, in: directory)
        }
        try FileManager.default.createDirectory(atPath: directory + "/folder.yaml", withIntermediateDirectories: true)
        try writeFile("tests: []", to: "folder.yaml/inner.yaml", in: directory)
        let single = try writeFile("tests: []", to: "other/single.txt", in: directory)

        let found = try SuiteDiscovery.files(in: [directory + "/", single, directory + "/b.yaml"])
        #expect(
            found == [
                directory + "/a.yml", directory + "/b.yaml", directory + "/folder.yaml/inner.yaml",
                directory + "/sub/deeper/c.yaml", directory + "/sub/z.yaml", single,
            ])
    }

    @Test func rejectsMissingPathsAndEmptyFolders() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: SuiteDiscovery.DiscoveryError.self) { try SuiteDiscovery.files(in: [directory + "/nope"]) }
        do {
            _ = try SuiteDiscovery.files(in: [directory + "/nope"])
        } catch {
            #expect("\(error)" == "\(directory)/nope: no such file or directory")
        }
        do {
            _ = try SuiteDiscovery.files(in: [directory])
            Issue.record("an empty folder should be an error")
        } catch {
            #expect("\(error)" == "\(directory): no suite files (*.yaml, *.yml) in this folder")
        }
    }

    // MARK: - Symbolic links

    @Test func followsALinkedFolderOnceAndListsFilesUnderTheirOwnPathFirst() throws {
        let directory = try makeTemporaryDirectory()
        let outside = try makeTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try writeFile("tests: []", to: "z-real/x.yaml", in: directory)
        try writeFile("tests: []", to: "shared/y.yaml", in: outside)
        let manager = FileManager.default
        // Met before the folder it names (sorted order), yet the folder's own path wins.
        try manager.createSymbolicLink(atPath: directory + "/a-link", withDestinationPath: "z-real")
        try manager.createSymbolicLink(atPath: directory + "/elsewhere", withDestinationPath: outside + "/shared")
        // A link to an enclosing folder: followed at most once, never a loop.
        try manager.createSymbolicLink(atPath: directory + "/z-real/up", withDestinationPath: "..")
        let discovery = try SuiteDiscovery.discover([directory])
        #expect(discovery.files == [directory + "/elsewhere/y.yaml", directory + "/z-real/x.yaml"])
        #expect(discovery.warnings.isEmpty)
    }

    @Test func warnsForBrokenAndLoopingLinksAndSearchesOn() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("tests: []", to: "ok.yaml", in: directory)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: directory + "/gone.yaml", withDestinationPath: "missing.yaml")
        try manager.createSymbolicLink(atPath: directory + "/gone-folder", withDestinationPath: "/nonexistent/suites")
        try manager.createSymbolicLink(atPath: directory + "/loop-a", withDestinationPath: "loop-b")
        try manager.createSymbolicLink(atPath: directory + "/loop-b", withDestinationPath: "loop-a")
        let discovery = try SuiteDiscovery.discover([directory])
        #expect(discovery.files == [directory + "/ok.yaml"])
        #expect(
            discovery.warnings == [
                .init(path: directory + "/gone-folder", kind: .brokenLink(target: "/nonexistent/suites")),
                .init(path: directory + "/gone.yaml", kind: .brokenLink(target: "missing.yaml")),
                .init(path: directory + "/loop-a", kind: .linkLoop),
                .init(path: directory + "/loop-b", kind: .linkLoop),
            ])
        #expect(
            discovery.warnings[1].description
                == "\(directory)/gone.yaml: a symbolic link to 'missing.yaml', which does not exist: skipped")
        #expect(discovery.warnings[2].description == "\(directory)/loop-a: a loop of symbolic links: skipped")
    }

    @Test func aLinkToASuiteFileFoundAlreadyIsNotASecondSuite() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("tests: []", to: "b.yaml", in: directory)
        try FileManager.default.createSymbolicLink(atPath: directory + "/a.yaml", withDestinationPath: "b.yaml")
        #expect(try SuiteDiscovery.files(in: [directory]) == [directory + "/a.yaml"])
    }
}
