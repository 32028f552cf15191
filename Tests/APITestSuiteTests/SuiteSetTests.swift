import Foundation
import Testing

@testable import APITestSuite

/// Which files of a folder are suites and which are shared fragments; include cycles and folders without tests
/// are errors, never an empty green run.
@Suite("Suite sets")
struct SuiteSetTests {
    private let test = "tests:\n  - name: t\n    steps:\n      - request: {url: 'http://127.0.0.1:9/'}\n"

    @Test func filesLoadedTogetherKeepTheirOrderAndTheirOwnErrors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Files load in parallel: suites and failures still come in file order, each with its own content.
        for index in 0..<12 {
            let name = String(format: "s%02d.yaml", index)
            let body =
                index % 4 == 3
                ? "name: suite \(index)\ntests:\n  - name: t\n    request: {url: 'http://127.0.0.1:9/'}\n    stauts: 1\n"
                : "name: suite \(index)\n" + test
            try writeFile(body, to: name, in: directory)
        }
        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(set.suites.map(\.name) == [0, 1, 2, 4, 5, 6, 8, 9, 10].map { "suite \($0)" })
        #expect(set.failures.map { ($0.file as NSString).lastPathComponent } == ["s03.yaml", "s07.yaml", "s11.yaml"])
        for failure in set.failures {
            #expect(failure.error.oneLineSummary.contains("unknown key 'stauts'"), "\(failure.error)")
        }
    }

    @Test func aFileIncludingItselfIsAnErrorInAFolderRun() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("include: a.yaml\n" + test, to: "a.yaml", in: directory)

        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(set.suites.isEmpty)
        #expect(set.fragments.isEmpty)
        #expect(set.failures.map { ($0.file as NSString).lastPathComponent } == ["a.yaml"])
        #expect(set.failures.first?.error.oneLineSummary.contains("include cycle: a.yaml → a.yaml") == true)
    }

    @Test func twoFilesIncludingEachOtherAreBothErrors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Neither declares tests, so without the cycle rule each would be the other's fragment.
        try writeFile("include: b.yaml\nvariables: {x: 1}\n", to: "a.yaml", in: directory)
        try writeFile("include: a.yaml\nvariables: {y: 2}\n", to: "b.yaml", in: directory)

        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(set.fragments.isEmpty)
        #expect(set.failures.map { ($0.file as NSString).lastPathComponent } == ["a.yaml", "b.yaml"])
        for failure in set.failures {
            #expect(failure.error.oneLineSummary.contains("include cycle"), "\(failure.error)")
        }
    }

    @Test func aCycleBehindAnIncludeIsReportedAtEveryFileOnIt() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("include: shared/a.yaml\n" + test, to: "suite.yaml", in: directory)
        try writeFile("include: b.yaml\n", to: "shared/a.yaml", in: directory)
        try writeFile("include: a.yaml\n", to: "shared/b.yaml", in: directory)

        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(
            set.failures.map { ($0.file as NSString).lastPathComponent }.sorted() == ["a.yaml", "b.yaml", "suite.yaml"])
    }

    @Test func fragmentsAreSetAsideAndFilesDeclaringTestsNeverAre() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("include: shared/vars.yaml\n" + test, to: "suite.yaml", in: directory)
        try writeFile("variables: {who: shared}\n", to: "shared/vars.yaml", in: directory)
        // Included by a steps include of another suite, but it declares tests: a suite (and the includer's error).
        try writeFile(test, to: "other.yaml", in: directory)
        try writeFile(
            "tests:\n  - name: u\n    steps:\n      - include: other.yaml\n", to: "user.yaml", in: directory)

        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(set.fragments.map { ($0 as NSString).lastPathComponent } == ["vars.yaml"])
        #expect(set.suites.map(\.name).sorted() == ["other", "suite"])
        #expect(set.failures.map { ($0.file as NSString).lastPathComponent } == ["user.yaml"])
    }

    @Test func aFIFOInAFolderIsAnErrorNotAHang() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(test, to: "a.yaml", in: directory)
        #expect(mkfifo(directory + "/pipe.yaml", 0o600) == 0)

        let set = try SuiteSet.load(paths: [directory], loader: SuiteLoader(environment: [:]))
        #expect(set.suites.map(\.name) == ["a"])
        #expect(
            set.failures.map { $0.error.oneLineSummary } == [
                "\(directory)/pipe.yaml:1:1: error: the suite file is not a regular file (a FIFO, socket or device)"
            ])
    }
}
