import Foundation

/// What a file is, whatever path names it: the device and inode `stat(2)` gives after following symbolic links.
/// Two paths (a link, a hard link, `a/../b`, `/proc/self/fd/N`) name the same file exactly when their identities are
/// equal.
package struct FileIdentity: Sendable, Hashable {
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode on that device.
    package var inode: UInt64
    /// Whether it is a regular file (not a folder, a device, a FIFO or a socket).
    package var isRegular: Bool

    /// The identity of the file at `path` (links followed; relative to the current folder), or `nil` when nothing
    /// is there.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The identity of the file open as `descriptor` (standard output: `STDOUT_FILENO`), or `nil` when it is not
    /// open.
    package init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        isRegular = info.st_mode & S_IFMT == S_IFREG
    }
}
