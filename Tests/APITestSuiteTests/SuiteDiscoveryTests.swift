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
}
