import Foundation

/// Where a file apitest writes goes and how it is written, decided from the file system before anything is
/// written: every report file (`run`, `load`, `merge`, `--curl`) and every suite file (`import -o`, `generate -o`,
/// through `SuiteFileWriter`).
///
/// - A new file, or an existing regular file, is replaced atomically (``AtomicFileWriter``): a temporary file next
///   to it, renamed over it. A symbolic link to a regular file is resolved first, so the link stays and its target
///   is replaced (the temporary file is made next to the target).
/// - A character device (`/dev/null`, a terminal), a FIFO, or a symbolic link to one (`/dev/stdout`) is written
///   through: opened for writing and written in place, never replaced by a regular file. So is a path that leads
///   through `/proc` (`/dev/stdout` when standard output is a file): it names a file another descriptor has open,
///   and the report is appended to it.
/// - A folder, a socket, a block device, a missing folder or one this process may not write to is a
///   ``ReportDestination/Problem``.
package struct ReportDestination: Sendable, Hashable {
    /// How the bytes reach the file.
    package enum Method: Sendable, Hashable {
        /// A temporary file beside ``ReportDestination/target``, renamed over it.
        case replace
        /// ``ReportDestination/target`` opened for writing (appending) and written in place.
        case writeThrough
    }

    /// What a destination is, to tell two paths that name the same file.
    package enum Identity: Sendable, Hashable {
        /// An existing file: its device and inode.
        case file(device: UInt64, inode: UInt64)
        /// A file still to be made: its canonical path.
        case path(String)
    }

    /// Why a report cannot be written to a path.
    package struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        package enum Kind: Sendable, Hashable {
            /// Empty, or ends in `/`, `.` or `..`.
            case notAFileName
            /// The path is a folder.
            case directory
            /// The folder that would hold the file does not exist.
            case folderMissing(String)
            /// What would hold the file is not a folder.
            case folderNotDirectory(String)
            /// The folder exists but this process may not create files in it.
            case folderNotWritable(String)
            /// The file exists but this process may not write to it.
            case notWritable
            /// A socket or a block device.
            case unsupportedType(String)
            /// More than 40 symbolic links in a row.
            case tooManyLinks
            /// A system call failed with this `errno`.
            case system(Int32)
        }

        /// The path as given.
        package var path: String
        /// What is wrong with it.
        package var kind: Kind

        /// The problem `kind` with the report path `path`.
        package init(path: String, kind: Kind) {
            self.path = path
            self.kind = kind
        }

        /// What is wrong, as a phrase: `the folder 'out' does not exist`.
        package var reason: String {
            switch kind {
            case .notAFileName: "not a file name"
            case .directory: "is a directory"
            case .folderMissing(let folder): "the folder '\(folder)' does not exist"
            case .folderNotDirectory(let folder): "'\(folder)' is not a folder"
            case .folderNotWritable(let folder): "the folder '\(folder)' is not writable"
            case .notWritable: "the file is not writable"
            case .unsupportedType(let type): "is a \(type), not a file or a character device or a FIFO"
            case .tooManyLinks: "too many levels of symbolic links"
            case .system(let code): String(cString: strerror(code))
            }
        }

        /// `path: reason`.
        package var description: String { "\(path): \(reason)" }
    }

    /// The path as given.
    package let path: String
    /// The file written: the path with its symbolic links resolved for ``Method/replace``, the path as given for
    /// ``Method/writeThrough``.
    package let target: String
    /// How the bytes reach ``target``.
    package let method: Method
    /// Equal for two destinations that are the same file.
    package let identity: Identity

    // MARK: - Resolving

    /// A destination that `path` is appended to (`$GITHUB_STEP_SUMMARY`, which other steps' commands append to as
    /// well): written in place, made when missing; a folder or a missing folder is a ``Problem``.
    package static func appending(to path: String) throws(Problem) -> ReportDestination {
        let lastComponent = path.split(separator: "/").last ?? ""
        if path.isEmpty || path.hasSuffix("/") || lastComponent == "." || lastComponent == ".." {
            throw Problem(path: path, kind: .notAFileName)
        }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw Problem(path: path, kind: .directory) }
            guard access(path, W_OK) == 0 else { throw Problem(path: path, kind: .notWritable) }
        } else {
            _ = try checkFolder(of: FilePaths.absolute(path), path: path)
        }
        return ReportDestination(path: path, target: path, method: .writeThrough, identity: .path(path))
    }

    /// Decides how to write a report to `path` (relative to the current directory), checking that it can be.
    package static func resolve(_ path: String) throws(Problem) -> ReportDestination {
        let lastComponent = path.split(separator: "/").last ?? ""
        if path.isEmpty || path.hasSuffix("/") || lastComponent == "." || lastComponent == ".." {
            throw Problem(path: path, kind: .notAFileName)
        }
        // Follow the links of the last component by hand: a dangling link names the file to make, and a link into
        // /proc (/dev/stdout → /proc/self/fd/1) names a file that is open elsewhere.
        var current = FilePaths.absolute(path)
        var throughProc = current.hasPrefix("/proc/")
        for hop in 0... {
            guard hop < 40 else { throw Problem(path: path, kind: .tooManyLinks) }
            guard !throughProc, let link = readLink(current) else { break }
            current = FilePaths.absolute(link, relativeTo: FilePaths.directory(of: current))
            throughProc = current.hasPrefix("/proc/")
        }

        var info = stat()
        if stat(path, &info) == 0 {
            let identity = Identity.file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw Problem(path: path, kind: .directory)
            case S_IFCHR, S_IFIFO:
                guard access(path, W_OK) == 0 else { throw Problem(path: path, kind: .notWritable) }
                return ReportDestination(path: path, target: path, method: .writeThrough, identity: identity)
            case S_IFREG:
                guard access(path, W_OK) == 0 else { throw Problem(path: path, kind: .notWritable) }
                if throughProc {
                    return ReportDestination(path: path, target: path, method: .writeThrough, identity: identity)
                }
                let target = FilePaths.canonical(current)
                try checkFolder(of: target, path: path)
                return ReportDestination(path: path, target: target, method: .replace, identity: identity)
            case S_IFSOCK:
                throw Problem(path: path, kind: .unsupportedType("socket"))
            case S_IFBLK:
                throw Problem(path: path, kind: .unsupportedType("block device"))
            default:
                throw Problem(path: path, kind: .unsupportedType("special file"))
            }
        }
        let failure = errno
        guard failure == ENOENT || failure == ENOTDIR, !throughProc else {
            throw Problem(path: path, kind: .system(failure))
        }
        // Nothing there yet (or a link to nothing): the file is made in the folder of the last link's target.
        let folder = try checkFolder(of: current, path: path)
        let name = current.split(separator: "/").last.map(String.init) ?? ""
        let target = (folder == "/" ? "" : folder) + "/" + name
        return ReportDestination(path: path, target: target, method: .replace, identity: .path(target))
    }

    /// The canonical folder of `file`, checked to exist and to take new files.
    @discardableResult
    private static func checkFolder(of file: String, path: String) throws(Problem) -> String {
        let folder = FilePaths.directory(of: file)
        var info = stat()
        guard stat(folder, &info) == 0 else {
            let failure = errno
            if failure == ENOENT { throw Problem(path: path, kind: .folderMissing(folder)) }
            if failure == ENOTDIR { throw Problem(path: path, kind: .folderNotDirectory(folder)) }
            throw Problem(path: path, kind: .system(failure))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw Problem(path: path, kind: .folderNotDirectory(folder)) }
        guard access(folder, W_OK | X_OK) == 0 else { throw Problem(path: path, kind: .folderNotWritable(folder)) }
        return FilePaths.canonical(folder)
    }

    /// The target of the symbolic link at `path`, or `nil` when `path` is not one.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Writing

    /// Writes `bytes` by ``method``. Before writing through, apitest's own buffered standard output and error are
    /// flushed, so that a report sent to the console's terminal or pipe comes after what the console printed.
    package func write(_ bytes: [UInt8]) throws(AtomicFileWriter.WriteError) {
        switch method {
        case .replace:
            do {
                try AtomicFileWriter.write(bytes, to: target)
            } catch {
                throw AtomicFileWriter.WriteError(path: path, reason: error.reason)
            }
        case .writeThrough:
            StandardOutput.out.flush()
            StandardOutput.error.flush()
            let descriptor = open(target, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw AtomicFileWriter.WriteError(path: path, reason: String(cString: strerror(errno)))
            }
            var failure = AtomicFileWriter.writeAll(bytes, to: descriptor)
            if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
            if let failure { throw AtomicFileWriter.WriteError(path: path, reason: failure) }
        }
    }
}
