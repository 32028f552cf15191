import APITestJSON
package import APITestSuite
import APITestSupport
import Foundation
import Synchronization

// MARK: - Settings

/// What a run does with snapshots (`expect.snapshot`): `--update-snapshots` writes every snapshot that differs or is
/// missing; otherwise a missing one is written, unless the run is in CI (`CI` set), where it fails the step.
package struct SnapshotSettings: Sendable {
    /// `--update-snapshots`: write snapshots that differ or are missing, and pass their comparison.
    package var update = false
    /// A missing snapshot fails its step instead of being written (in CI).
    package var failsWhenMissing = false
    /// How many snapshot files the run wrote, for the line that says so.
    package let written = SnapshotTally()

    /// Snapshots compared, a missing one written.
    package init() {}

    /// Whether the environment says the run is in CI: `CI` set to anything but empty, `0` or `false`.
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }
}

/// A count of the snapshot files a run wrote, shared by its tests.
package final class SnapshotTally: Sendable {
    private let count = Mutex(0)

    /// None yet.
    package init() {}

    /// The files written so far.
    package var value: Int { count.withLock { $0 } }

    /// One more file written.
    func add() { count.withLock { $0 += 1 } }
}

// MARK: - Store

/// The snapshots of one suite: `__snapshots__/<suite file stem>/` next to the suite file, a `<name>.json` for a JSON
/// body and a `<name>.txt` for any other (its exact bytes for a body that is not UTF-8 text). Files are written atomically, never through a symbolic link and never over
/// a file the suite reads.
struct SnapshotStore {
    /// The folder, absolute.
    let folder: String
    /// The folder as messages show it, relative to the suite's directory.
    let shownFolder: String
    /// The suite's own files, which a snapshot never replaces.
    let inputs: [String]

    /// What is stored under a name.
    enum Stored {
        case json(JSONValue)
        case text(String)
        /// A `.txt` file that is not UTF-8 text (the snapshot of a binary body), compared byte for byte.
        case bytes([UInt8])
        case missing
        /// The file exists but cannot be used (unreadable, not JSON, a link): why.
        case unusable(String)
    }

    /// Why a snapshot was not written.
    struct WriteError: Error {
        var reason: String
    }

    init(suite: Suite) {
        let stem = URL(fileURLWithPath: suite.file).deletingPathExtension().lastPathComponent
        shownFolder = "__snapshots__/" + stem
        folder =
            URL(fileURLWithPath: suite.directory).appendingPathComponent("__snapshots__")
            .appendingPathComponent(stem).path
        inputs = [suite.file] + suite.includedFiles.sorted()
    }

    /// The path of `name`'s file of that kind, absolute.
    func path(of name: String, json: Bool) -> String {
        folder + "/" + name + (json ? ".json" : ".txt")
    }

    /// The path of `name`'s file as messages show it.
    func shownPath(of name: String, json: Bool) -> String {
        shownFolder + "/" + name + (json ? ".json" : ".txt")
    }

    /// The snapshot stored under `name`: the `.json` file, else the `.txt` one.
    func read(_ name: String) -> Stored {
        for json in [true, false] {
            let path = path(of: name, json: json)
            guard let kind = Self.kind(of: path) else { continue }
            if let problem = linkProblem() ?? (kind == .regular ? nil : "it is not a regular file") {
                return .unusable("\(shownPath(of: name, json: json)): \(problem)")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                return .unusable("\(shownPath(of: name, json: json)): cannot be read")
            }
            guard json else {
                return String(validating: data, as: UTF8.self).map(Stored.text) ?? .bytes([UInt8](data))
            }
            do {
                return .json(try JSONParser.parse([UInt8](data)))
            } catch {
                return .unusable("\(shownPath(of: name, json: json)) is not valid JSON: \(error.description)")
            }
        }
        return .missing
    }

    /// Writes `bytes` as `name`'s snapshot of that kind, atomically, and removes its file of the other kind.
    func write(_ bytes: [UInt8], as name: String, json: Bool) throws(WriteError) {
        if let problem = linkProblem() { throw WriteError(reason: problem) }
        let path = path(of: name, json: json)
        if let kind = Self.kind(of: path), kind != .regular {
            throw WriteError(reason: "\(shownPath(of: name, json: json)) is not a regular file")
        }
        if let target = FileIdentity(path: path),
            inputs.contains(where: { FileIdentity(path: $0) == target })
        {
            throw WriteError(reason: "\(shownPath(of: name, json: json)) is a file the suite reads")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(reason: "cannot create \(shownFolder): \(error.localizedDescription)")
        }
        do {
            try AtomicFileWriter.write(bytes, to: path)
        } catch {
            throw WriteError(reason: error.reason)
        }
        let other = self.path(of: name, json: !json)
        if Self.kind(of: other) == .regular { try? FileManager.default.removeItem(atPath: other) }
    }

    // MARK: - Files

    private enum Kind { case regular, link, other }

    /// What `path` is, without following a link; `nil` when nothing is there.
    private static func kind(of path: String) -> Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Why the folder cannot hold snapshots: `__snapshots__` or the suite's folder in it is a symbolic link (which
    /// could lead a write anywhere) or not a folder.
    private func linkProblem() -> String? {
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        for (path, shown) in [(parent, "__snapshots__"), (folder, shownFolder)] {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            if status.st_mode & S_IFMT == S_IFLNK { return "\(shown) is a symbolic link; snapshots are not followed" }
            if status.st_mode & S_IFMT != S_IFDIR { return "\(shown) is not a folder" }
        }
        return nil
    }
}
