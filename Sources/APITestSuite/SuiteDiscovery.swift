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

    /// A symbolic link that folder discovery could not follow: reported as a warning, the rest is searched.
    package struct Warning: Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the link.
        package enum Kind: Sendable, Hashable {
            /// The link names nothing (its target as written).
            case brokenLink(target: String)
            /// The link leads back to itself through other links (`ELOOP`).
            case linkLoop
        }

        /// The link, as found under the folder named on the command line.
        package var path: String
        /// What is wrong with it.
        package var kind: Kind

        /// A warning of `kind` for the link `path`.
        package init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// The message, without the path.
        package var message: String {
            switch kind {
            case .brokenLink(let target):
                "a symbolic link to '\(target)', which does not exist: skipped"
            case .linkLoop:
                "a loop of symbolic links: skipped"
            }
        }

        package var description: String { "\(path): \(message)" }
    }

    /// The suite files of a command line, and the links found on the way that could not be followed.
    package struct Discovery: Sendable, Hashable {
        /// The suite files, in order (``SuiteDiscovery/files(in:)``).
        package var files: [String] = []
        /// The broken and looping symbolic links met in folders, in the order found.
        package var warnings: [Warning] = []
    }

    /// The suite files for `paths`: a file as given; a folder searched recursively for `*.yaml` and `*.yml`
    /// files (hidden files and folders skipped), in sorted order. Each file appears once, at its first mention.
    /// Throws for a path that does not exist and for a folder with no suite files.
    package static func files(in paths: [String]) throws(DiscoveryError) -> [String] {
        try discover(paths).files
    }

    /// As ``files(in:)``, with the warnings for symbolic links in folders that lead nowhere.
    ///
    /// A symbolic link to a folder is followed, once: a folder already searched (the same device and inode, reached
    /// through another link or its own path) is not searched again, so a link to an enclosing folder cannot loop.
    /// Folders reached without links are searched first, so a file is listed under its own path when it has one. A
    /// link to a file is a suite file like any other, unless the file was found already. A broken link and a loop
    /// of links are skipped with a ``Warning``.
    package static func discover(_ paths: [String]) throws(DiscoveryError) -> Discovery {
        var result = Discovery()
        var seenPaths = Set<String>()
        var seenFiles = Set<FileIdentity>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw DiscoveryError(path: path, kind: .notFound)
            }
            let found = isDirectory.boolValue ? try suiteFiles(inFolder: path, warnings: &result.warnings) : [path]
            for file in found where seenPaths.insert(FilePaths.absolute(file)).inserted {
                if let identity = FileIdentity(path: file), !seenFiles.insert(identity).inserted { continue }
                result.files.append(file)
            }
        }
        return result
    }

    // MARK: - Searching a folder

    private static func suiteFiles(
        inFolder folder: String, warnings: inout [Warning]
    ) throws(DiscoveryError) -> [String] {
        guard listing(folder) != nil else { throw DiscoveryError(path: folder, kind: .unreadableFolder) }
        // Marked when searched (not when met), so that a link met before the folder it names does not hide it.
        var visited: Set<FileIdentity> = []
        // Folders to search, relative to `folder`: those reached without a link first, then those behind links.
        var plain: [String] = [""]
        var linked: [String] = []
        var relativePaths: [String] = []
        while let relative = plain.popLast() ?? (linked.isEmpty ? nil : linked.removeFirst()) {
            let full = relative.isEmpty ? folder : join(folder, relative)
            guard let identity = FileIdentity(path: full), visited.insert(identity).inserted,
                let names = listing(full)
            else { continue }
            for name in names.sorted() where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let child = join(folder, childRelative)
                var linkInfo = stat()
                let isLink = lstat(child, &linkInfo) == 0 && linkInfo.st_mode & S_IFMT == S_IFLNK
                var info = stat()
                guard stat(child, &info) == 0 else {
                    let failure = errno
                    if isLink {
                        let kind: Warning.Kind =
                            failure == ELOOP ? .linkLoop : .brokenLink(target: linkTarget(child) ?? "?")
                        warnings.append(Warning(path: child, kind: kind))
                    }
                    continue
                }
                if info.st_mode & S_IFMT == S_IFDIR {
                    if isLink { linked.append(childRelative) } else { plain.append(childRelative) }
                } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                    relativePaths.append(childRelative)
                }
            }
        }
        guard !relativePaths.isEmpty else {
            throw DiscoveryError(path: folder, kind: .noSuiteFiles)
        }
        return relativePaths.sorted().map { join(folder, $0) }
    }

    /// The names in the folder at `path`, or `nil` when it cannot be listed.
    private static func listing(_ path: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: path)
    }

    /// The target of the symbolic link at `path`, as written in the link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func join(_ folder: String, _ relative: String) -> String {
        folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }
}
