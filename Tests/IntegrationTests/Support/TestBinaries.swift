import Foundation

// MARK: - TestBinaries

/// Locates the package's built executables (`apitest`, `apitest-demo`) for integration tests.
enum TestBinaries {
    /// Why a product could not be used.
    struct Missing: Error, CustomStringConvertible {
        var product: String
        var path: String
        var description: String {
            "the built product '\(product)' is missing at \(path); build it first (swift build --product \(product)) "
                + "or point APITEST_BIN_DIR at the folder that holds it"
        }
    }

    /// The folder holding the built products: `APITEST_BIN_DIR` when set, else the folder of the running test
    /// bundle (`CommandLine.arguments[0]`), which SwiftPM puts next to the products.
    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["APITEST_BIN_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let runner = URL(fileURLWithPath: CommandLine.arguments[0], relativeTo: current).standardizedFileURL
        var folder = runner.deletingLastPathComponent()
        // On macOS the runner may sit inside `X.xctest/Contents/MacOS`; the products are beside the bundle.
        while folder.path.contains(".xctest") { folder = folder.deletingLastPathComponent() }
        return folder
    }

    /// The executable for `product`, or a `Missing` error naming the path that was looked at.
    static func url(_ product: String) throws -> URL {
        let candidate = directory.appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw Missing(product: product, path: candidate.path)
        }
        return candidate
    }

    /// A tool found on `PATH` (such as `curl` or `python3`), or a `Missing` error.
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(product: name, path: "PATH (\(path))")
    }
}
