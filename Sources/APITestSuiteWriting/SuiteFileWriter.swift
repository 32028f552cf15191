import APITestSupport
import Foundation

/// Writes suite files that apitest made (`generate openapi`, `import`): into a folder, all or nothing when a file is
/// already there (unless told to overwrite), or one file.
///
/// Each file is written as a report file is (``ReportDestination``): a regular file is replaced atomically (a
/// symbolic link to one stays a link, and its target is replaced); a character device or a FIFO (`/dev/null`,
/// `/dev/stdout`, a named pipe), or a link to one, is written through, never replaced by a regular file.
package enum SuiteFileWriter {
    /// Why files could not be written.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        package enum Kind: Sendable, Hashable {
            /// Files that exist and would be overwritten (paths as given).
            case wouldOverwrite([String])
            /// The output path is a file, not a folder.
            case notAFolder
            /// The folder or a file could not be created or written; the system's reason.
            case writeFailed(path: String, reason: String)
            /// The output file is a folder.
            case isAFolder
        }

        /// What went wrong.
        package var kind: Kind
        /// The output folder as given.
        package var directory: String

        /// A failure of `kind` writing into `directory`.
        package init(kind: Kind, directory: String) {
            self.kind = kind
            self.directory = directory
        }

        package var description: String {
            switch kind {
            case .wouldOverwrite(let paths):
                let list = paths.joined(separator: ", ")
                return "\(list) already exist\(paths.count == 1 ? "s" : ""); nothing was written (--force overwrites)"
            case .notAFolder:
                return "\(directory) is a file, not a folder; nothing was written"
            case .isAFolder:
                return "\(directory) is a folder, not a file; nothing was written"
            case .writeFailed(let path, let reason):
                return "cannot write \(path): \(reason)"
            }
        }
    }

    /// The paths (`directory/name`, as given) of the files of `names` that already exist in `directory`.
    package static func existing(_ names: [String], in directory: String) -> [String] {
        names.map { join(directory, $0) }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Writes `files` (name and text) into `directory`, creating it (and its parents) when missing (not when there
    /// is no file). Without `overwrite`, nothing is written when any of them exists.
    ///
    /// - Returns: the paths written (`directory/name`, as given).
    package static func write(
        _ files: [(name: String, text: String)], to directory: String, overwrite: Bool
    ) throws(Failure) -> [String] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Failure(kind: .notAFolder, directory: directory)
        }
        if !overwrite {
            let taken = existing(files.map(\.name), in: directory)
            guard taken.isEmpty else { throw Failure(kind: .wouldOverwrite(taken), directory: directory) }
        }
        guard !files.isEmpty else { return [] }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(kind: .writeFailed(path: directory, reason: reason(error)), directory: directory)
        }
        var written: [String] = []
        for file in files {
            let path = join(directory, file.name)
            try writeThroughDestination(file.text, to: path, directory: directory)
            written.append(path)
        }
        return written
    }

    /// Writes `text` to the file at `path` (its folder must exist). Without `overwrite`, nothing is written when
    /// the file exists. For one file, ``Failure/directory`` is the file's path as given.
    package static func writeFile(_ text: String, to path: String, overwrite: Bool) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw Failure(kind: .isAFolder, directory: path) }
            if !overwrite { throw Failure(kind: .wouldOverwrite([path]), directory: path) }
        }
        try writeThroughDestination(text, to: path, directory: path)
    }

    /// Writes `text` to `path` as its ``ReportDestination`` says (atomically, or through a device or FIFO); a
    /// failure names `path` and, as ``Failure/directory``, `directory`.
    private static func writeThroughDestination(_ text: String, to path: String, directory: String) throws(Failure) {
        let destination: ReportDestination
        do {
            destination = try ReportDestination.resolve(path)
        } catch {
            throw Failure(kind: .writeFailed(path: path, reason: error.reason), directory: directory)
        }
        do {
            try destination.write(Array(text.utf8))
        } catch {
            throw Failure(kind: .writeFailed(path: path, reason: error.reason), directory: directory)
        }
    }

    /// The path of the file `name` in `directory` (as given): `directory/name`.
    package static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func reason(_ error: any Error) -> String {
        let failure = error as NSError
        if let underlying = failure.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return failure.localizedDescription
    }
}
