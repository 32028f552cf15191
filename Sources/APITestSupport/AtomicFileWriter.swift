package import Foundation
package import Synchronization

/// Writes a file all at once: into a temporary file in the same directory, flushed to disk, then renamed over the
/// destination, so a reader sees either the previous file or the complete new one, never a partial one.
package enum AtomicFileWriter {
    /// Why a file could not be written.
    package struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The destination as given.
        package var path: String
        /// What failed, e.g. `No such file or directory`.
        package var reason: String

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        package var description: String { "\(path): \(reason)" }
    }

    /// Writes `bytes` to `path` atomically. The new file's permissions follow the umask (as with `open(2)` and
    /// mode 0666); on failure the temporary file is removed and the destination is left as it was.
    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        if path.hasSuffix("/") || name.isEmpty || name == "." || name == ".." {
            throw WriteError(path: path, reason: "not a file name")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw WriteError(path: path, reason: "is a directory")
        }

        var descriptor: Int32 = -1
        var temporary = ""
        var openFailure = ""
        let registered = temporaries.withLock { state -> Bool in
            // After abandonTemporaryFiles() (a second Ctrl-C) no new temporary file is made.
            guard !state.abandoned else { return false }
            for _ in 0..<16 {
                temporary = "\(directory)/.\(name).\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
                descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                if descriptor >= 0 || errno != EEXIST { break }
            }
            if descriptor >= 0 { state.paths.insert(temporary) } else { openFailure = Self.errnoText() }
            return true
        }
        guard registered else { throw WriteError(path: path, reason: "interrupted") }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: openFailure) }
        defer { _ = temporaries.withLock { $0.paths.remove(temporary) } }

        var failure = writeAll(bytes, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = Self.errnoText() }
        if close(descriptor) != 0, failure == nil { failure = Self.errnoText() }
        if failure == nil, let pause = pauseBeforeRename.withLock({ $0 }) { Thread.sleep(forTimeInterval: pause) }
        if failure == nil, rename(temporary, path) != 0 { failure = Self.errnoText() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes; the `strerror` text of a failure, or `nil`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var failure: String?
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count, let base = raw.baseAddress {
                let written = Foundation.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.errnoText()
                    return
                }
                offset += written
            }
        }
        return failure
    }

    // MARK: - Abandoning

    /// The temporary files being written, and whether writing has been abandoned.
    private struct Temporaries {
        var paths: Set<String> = []
        var abandoned = false
    }

    private static let temporaries = Mutex(Temporaries())

    /// Removes every temporary file a `write` is filling and makes later writes fail without making one; for a
    /// process about to exit in the middle of writing (a second Ctrl-C). The destinations keep what they held.
    package static func abandonTemporaryFiles() {
        temporaries.withLock { state in
            state.abandoned = true
            for path in state.paths { unlink(path) }
            state.paths.removeAll()
        }
    }

    /// A pause, in seconds, between filling the temporary file and renaming it; `nil` (none) unless set. Only
    /// tests set it (through apitest's `APITEST_TEST_REPORT_PAUSE`), to interrupt a run while a report is written.
    package static let pauseBeforeRename = Mutex<TimeInterval?>(nil)

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
