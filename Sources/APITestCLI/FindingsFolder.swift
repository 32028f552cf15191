import APITestSupport
import Foundation

/// Whether `fuzz --findings` names a folder findings can be written to, checked before anything is sent (as report
/// paths are): the folder, or the nearest existing folder above it where it is made.
enum FindingsFolder {
    // MARK: - Checking

    /// Why `path` cannot hold findings (`is not a folder`, ...), or `nil` when it can.
    static func problem(_ path: String) -> String? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "is not a folder: findings are written in it, a suite each" }
            return manager.isWritableFile(atPath: path) ? nil : "is a folder that cannot be written to"
        }
        // The folder is made when there are findings: the nearest existing path above must be a writable folder.
        var current = URL(fileURLWithPath: path).standardizedFileURL
        while current.path != "/" {
            current = current.deletingLastPathComponent()
            guard manager.fileExists(atPath: current.path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                return "cannot be made: '\(current.path.shownInMessage)' is not a folder"
            }
            return manager.isWritableFile(atPath: current.path)
                ? nil : "cannot be made: the folder '\(current.path.shownInMessage)' cannot be written to"
        }
        return nil
    }
}
