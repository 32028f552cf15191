import Foundation

// MARK: - Files beside the suite

extension SuiteDocument {
    /// A file a writer writes beside the suite, which the suite names (a recorded binary body sent as `bodyFile`):
    /// the suite format holds text, so bytes that are not text go to a file of their own.
    package struct File: Sendable, Equatable {
        /// The path relative to the suite's folder, as the suite names it.
        package var path: String
        /// The bytes.
        package var bytes: [UInt8]

        /// The file `path` holding `bytes`.
        package init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Why a file beside the suite was not written.
    package struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file.
        package var path: String
        /// Whether it exists (and overwriting was not asked for); otherwise the system refused the write.
        package var exists: Bool
        /// The system's reason, when it refused.
        package var reason: String

        package var description: String {
            exists ? "\(path) exists; it was not replaced (--force overwrites)" : "cannot write \(path): \(reason)"
        }
    }

    /// Writes ``files`` relative to `folder` (the suite file's folder), creating their folders; an existing file is
    /// replaced only when `overwrite`. Returns the paths written.
    package func writeFiles(relativeTo folder: String, overwrite: Bool) throws(FileWriteError) -> [String] {
        var written: [String] = []
        for file in files {
            let path = folder + "/" + file.path
            if !overwrite, FileManager.default.fileExists(atPath: path) {
                throw FileWriteError(path: path, exists: true, reason: "")
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw FileWriteError(path: path, exists: false, reason: error.localizedDescription)
            }
            written.append(path)
        }
        return written
    }
}
