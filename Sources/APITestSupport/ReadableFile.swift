import Foundation
import Synchronization

/// The check every file apitest reads gets before it is opened: it must be a readable regular file.
///
/// Opening a FIFO blocks until a writer appears, and a character device may never end, so a file named by a suite
/// key (`bodyFile`, `include`, `caFile`, ...) or by a command-line flag (`--ca-file`, `--variables-file`, ...) is
/// looked at with `stat(2)` and `access(2)` only, never opened, to decide. `stat` follows symbolic links, as the
/// later `open` will.
public enum ReadableFile {
    /// Why a path cannot be read as a file.
    public enum Problem: Error, Sendable, Hashable {
        /// Nothing exists at the path (or a folder on the way is missing).
        case missing
        /// The path is a folder.
        case directory
        /// The path is a FIFO, a socket or a device.
        case notRegular
        /// The file exists but this process may not read it.
        case unreadable

        /// The sentence for a file named by `key` (`bodyFile`, `--ca-file`) as `path`:
        /// `--ca-file 'ca.pem' is not a regular file`.
        public func message(key: String, path: String) -> String {
            switch self {
            case .missing: "\(key) '\(path)' does not exist"
            case .directory: "\(key) '\(path)' is a directory, not a file"
            case .notRegular: "\(key) '\(path)' is not a regular file"
            case .unreadable: "\(key) '\(path)' is not readable"
            }
        }
    }

    /// Why the file at `path` cannot be read, or `nil` when it is a readable regular file. A relative `path` is
    /// taken against the current directory. A readable file is recorded among the files read (``checkedFiles()``)
    /// unless `recording` is false: a check made when a request is sent, of a file the load already checked and
    /// recorded, needs no lock and no absolute path.
    public static func problem(at path: String, recording: Bool = true) -> Problem? {
        // stat(2) rather than FileManager's attributes, which would also look up the owner's name through NSS.
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .directory
        default: return .notRegular
        }
        guard access(path, R_OK) == 0 else { return .unreadable }
        guard recording else { return nil }
        let absolute = FilePaths.absolute(path)
        readable.withLock { _ = $0.insert(absolute) }
        return nil
    }

    // MARK: - The files read

    /// Every path ``problem(at:)`` found readable in this process, absolute.
    private static let readable = Mutex<Set<String>>([])

    /// The files apitest has found readable so far (absolute paths, sorted): since every file it reads is checked
    /// first, these are the files it reads or is about to (a suite, what a suite includes or names: `bodyFile`,
    /// `schema`, `forEach`, `openapi` and the files its `$ref`s name, certificates, `netrc`; the files named by
    /// flags), which no file apitest writes may be.
    package static func checkedFiles() -> [String] {
        readable.withLock { $0.sorted() }
    }
}
