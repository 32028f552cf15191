import APITestSupport
import Foundation

/// Finds suite files: files named on the command line as given, and `*.yaml`/`*.yml` files in folders.
package enum SuiteDiscovery {
    /// A path that names nothing usable.
    package struct DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package enum Kind: Sendable, Hashable {
            /// The path does not exist.
            case notFound
            /// The folder cannot be listed.
            case unreadableFolder
            /// The folder holds no `*.yaml` or `*.yml` file.
            case noSuiteFiles
        }

        /// The path named on the command line.
        package var path: String
        /// What is wrong with it.
        package var kind: Kind

        /// An error of `kind` for `path`.
        package init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// The message, without the path.
        package var message: String {
            switch kind {
            case .notFound: return "no such file or directory"
            case .unreadableFolder: return "cannot read the folder"
            case .noSuiteFiles: return "no suite files (*.yaml, *.yml) in this folder"
            }
        }

        package var description: String { "\(path): \(message)" }
    }

    /// The suite files for `paths`: a file as given; a folder searched recursively for `*.yaml` and `*.yml`
    /// files (hidden files and folders skipped), in sorted order. Each file appears once, at its first mention.
    /// Throws for a path that does not exist and for a folder with no suite files.
    package static func files(in paths: [String]) throws(DiscoveryError) -> [String] {
        var result: [String] = []
        var seen = Set<String>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw DiscoveryError(path: path, kind: .notFound)
            }
            let found = isDirectory.boolValue ? try suiteFiles(inFolder: path) : [path]
            for file in found where seen.insert(FilePaths.absolute(file)).inserted {
                result.append(file)
            }
        }
        return result
    }

    private static func suiteFiles(inFolder folder: String) throws(DiscoveryError) -> [String] {
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: folder) else {
            throw DiscoveryError(path: folder, kind: .unreadableFolder)
        }
        var relativePaths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                let full = join(folder, relative)
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
                    enumerator.skipDescendants()
                }
                continue
            }
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") else { continue }
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: join(folder, relative), isDirectory: &isDirectory), !isDirectory.boolValue {
                relativePaths.append(relative)
            }
        }
        guard !relativePaths.isEmpty else {
            throw DiscoveryError(path: folder, kind: .noSuiteFiles)
        }
        return relativePaths.sorted().map { join(folder, $0) }
    }

    private static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }
}
