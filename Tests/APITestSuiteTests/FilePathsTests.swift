import APITestSupport
import Foundation
import Testing

/// `FilePaths` must give what Foundation's URL gives for the same paths, which it replaces on the start-up path.
@Suite struct FilePathsTests {
    static let paths = [
        "/a/./b/../c", "/../a", "/a//b/", "a/b", "./a", "../a", "/a/b/..", "/a/b/../..", "/a/b/../../..", "/", "//",
        "/a/.", "a/../../b", "/tmp/x/", "", ".", "..", "suite.yaml", "dir with space/ü.yaml", "a/./b/./", "///a///b",
        "a/b/../../../../c", "/a/b/c/../../d/./e", "~", "~/x", "~/", "~root/x", "~nosuchuser-apitest/x", "a/~/b", "~x",
        "/~/a", "~/../y",
    ]
    static let directories: [String?] = [nil, "/base/dir", "/base/dir/", "/", "/base/../other", "relative/dir"]

    @Test(arguments: paths)
    func absoluteAgreesWithURL(_ path: String) {
        for directory in Self.directories {
            let expected: String
            if let directory {
                let base = URL(fileURLWithPath: directory, isDirectory: true)
                expected = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
            } else {
                expected = URL(fileURLWithPath: path).standardizedFileURL.path
            }
            #expect(FilePaths.absolute(path, relativeTo: directory) == expected, "\(path) in \(directory ?? "cwd")")
        }
        let directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        #expect(FilePaths.directory(of: path) == directory, "directory of \(path)")
    }

    @Test func canonicalResolvesSymbolicLinksAsURLDoes() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("apitest-paths-\(UUID())").path
        try manager.createDirectory(atPath: root + "/real/inner", withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: root) }
        try manager.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
        try manager.createSymbolicLink(atPath: root + "/relative-link", withDestinationPath: "real/inner")
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/real/inner/suite.yaml"))
        for path in [
            "link/inner/suite.yaml", "relative-link/suite.yaml", "link/inner/../inner/suite.yaml", "real/./inner",
            "link", "missing/file.yaml", "link/missing.yaml",
        ] {
            let expected = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: root, isDirectory: true))
                .standardizedFileURL.resolvingSymlinksInPath().path
            #expect(FilePaths.canonical(path, relativeTo: root) == expected, "\(path)")
        }
        #expect(FilePaths.canonical("link/inner/suite.yaml", relativeTo: root).hasSuffix("/real/inner/suite.yaml"))
    }
}
