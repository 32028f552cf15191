import Foundation

/// File-path arithmetic on strings: absolute and standardized paths, their directories, and (with the file system)
/// their canonical form.
///
/// `absolute` gives what `URL(fileURLWithPath:relativeTo:).standardizedFileURL.path` gives (`.` and empty
/// components dropped, `..` applied lexically and never above `/`, no trailing slash), without building a URL:
/// Foundation's first URL in a process costs a few hundred microseconds of set-up that `apitest run` would
/// otherwise pay on every start. `FilePathsTests` holds the two to the same results.
package enum FilePaths {
    // MARK: - Lexical

    /// `path` made absolute against `directory` (itself made absolute against the current directory), or against
    /// the current directory, and standardized.
    /// A leading `~` or `~user` names a home directory, as with URL (from the password database, not `$HOME`).
    package static func absolute(_ path: String, relativeTo directory: String? = nil) -> String {
        if path.hasPrefix("/") { return standardized(path) }
        if path.hasPrefix("~"), let expanded = expandingTilde(path) { return standardized(expanded) }
        let base = directory.map { $0.hasPrefix("/") ? $0 : currentDirectory + "/" + $0 } ?? currentDirectory
        return standardized(base + "/" + path)
    }

    /// An absolute path with `.` and empty components removed and `..` applied (`/..` is `/`).
    package static func standardized(_ absolutePath: String) -> String {
        var components: [Substring] = []
        for component in absolutePath.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": if !components.isEmpty { components.removeLast() }
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// `absolutePath` as people read it in messages: relative to the current directory when it is inside it
    /// (`/work/api/openapi.yaml` → `api/openapi.yaml` in `/work`), else as it is.
    package static func display(_ absolutePath: String) -> String {
        let base = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        guard absolutePath.hasPrefix(base), absolutePath.count > base.count else { return absolutePath }
        return String(absolutePath.dropFirst(base.count))
    }

    /// The directory that holds `path` (made absolute first): `/a/b.yaml` → `/a`, `/b.yaml` → `/`.
    package static func directory(of path: String) -> String {
        standardized(absolute(path) + "/..")
    }

    /// `~/rest` or `~user/rest` with the home directory in place of the first component; `nil` for an unknown
    /// user (the path is then an ordinary relative one, as URL takes it).
    static func expandingTilde(_ path: String) -> String? {
        let slash = path.firstIndex(of: "/") ?? path.endIndex
        let user = path[path.index(after: path.startIndex)..<slash]
        // The reentrant lookups: this may run on several threads at once.
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status =
            user.isEmpty
            ? getpwuid_r(getuid(), &entry, &buffer, buffer.count, &found)
            : getpwnam_r(String(user), &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let home = entry.pw_dir else { return nil }
        return String(cString: home) + path[slash...]
    }

    /// The process's current directory.
    package static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return FileManager.default.currentDirectoryPath }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - With the file system

    /// `path` made absolute against `directory` (or the current directory), standardized and with symbolic
    /// links resolved: `realpath(3)` for a path that exists, as `URL.resolvingSymlinksInPath()` does it for one
    /// that does not.
    package static func canonical(_ path: String, relativeTo directory: String? = nil) -> String {
        let absolute = absolute(path, relativeTo: directory)
        if let resolved = realpath(absolute, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
    }
}
