import Foundation

// MARK: - RepositoryPaths

/// Makes suite paths relative to a repository's root (`GITHUB_WORKSPACE`), as CI systems show them on a pull
/// request: a relative path is taken from the current folder first.
package struct RepositoryPaths: Sendable, Hashable {
    /// The repository's root.
    package var root: String
    /// The current folder, which relative paths are relative to.
    package var currentFolder: String

    /// Paths relative to `root`, relative ones read from `currentFolder`.
    package init(root: String, currentFolder: String) {
        self.root = root
        self.currentFolder = currentFolder
    }

    /// `path` relative to the root when it is inside it; else absolute.
    package func relative(_ path: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : (currentFolder.hasSuffix("/") ? currentFolder : currentFolder + "/") + path
        let standardized = URL(fileURLWithPath: absolute).standardizedFileURL.path
        let base = URL(fileURLWithPath: root).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return standardized.hasPrefix(prefix) ? String(standardized.dropFirst(prefix.count)) : standardized
    }
}
