import Foundation

/// Writes a file all at once: into a temporary file in the same directory, flushed to disk, then renamed over the
/// destination, so a reader sees either the previous file or the complete new one, never a partial one.
public enum AtomicFileWriter {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The destination as given.
        public var path: String
        /// What failed, e.g. `No such file or directory`.
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// Writes `bytes` to `path` atomically. The new file's permissions follow the umask (as with `open(2)` and
    /// mode 0666); on failure the temporary file is removed and the destination is left as it was.
    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
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
        for _ in 0..<16 {
            temporary = "\(directory)/.\(name).\(String(UInt32.random(in: 0...UInt32.max), radix: 36)).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: Self.errnoText()) }

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
        if failure == nil, fsync(descriptor) != 0 { failure = Self.errnoText() }
        if close(descriptor) != 0, failure == nil { failure = Self.errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = Self.errnoText() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
