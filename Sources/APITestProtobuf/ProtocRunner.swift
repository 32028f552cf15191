import APITestSupport
import Foundation

/// Compiles `.proto` files to a ``ProtoSchema`` with `protoc` (Debian's `protobuf-compiler`):
/// `protoc --include_imports --descriptor_set_out=... -I... files...`, started with an argument list (no shell).
///
/// The well-known types (`google/protobuf/timestamp.proto` and the others the JSON mapping knows) are supplied on
/// an import path of their own, last, so that a suite importing them works where Debian's `protoc` comes without
/// `libprotobuf-dev`'s copies. What `protoc` writes to standard error becomes a ``ProtobufError`` located at the
/// file, line and column it names.
package struct ProtocRunner: Sendable {
    /// The `protoc` to run: a path, or a name looked up on `PATH`.
    package var executable: String

    /// A runner of `executable` (`protoc` on `PATH` by default).
    package init(executable: String = "protoc") {
        self.executable = executable
    }

    /// The schema of `files` and everything they import. Paths are relative to `workingDirectory` (the current
    /// directory when `nil`); without import paths, that directory is the one import path, as for `protoc` itself.
    package func schema(
        files: [String], importPaths: [String] = [], workingDirectory: String? = nil
    ) throws(ProtobufError) -> ProtoSchema {
        try ProtoSchema(
            fileDescriptorSet: descriptorSet(files: files, importPaths: importPaths, workingDirectory: workingDirectory)
        )
    }

    /// The `FileDescriptorSet` bytes `protoc` writes for `files`, imports included.
    package func descriptorSet(
        files: [String], importPaths: [String] = [], workingDirectory: String? = nil
    ) throws(ProtobufError) -> [UInt8] {
        let manager = FileManager.default
        let directory = workingDirectory ?? manager.currentDirectoryPath
        guard let protoc = resolvedExecutable() else {
            throw ProtobufError(
                .protocUnavailable(
                    "'\(executable)' is not on PATH (install Debian's protobuf-compiler: apt-get install protobuf-compiler)"
                ))
        }
        let scratch = manager.temporaryDirectory.appendingPathComponent("apitest-protoc-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: scratch) }
        let includes = scratch.appendingPathComponent("include")
        let output = scratch.appendingPathComponent("set.pb")
        do {
            try ProtoWellKnownSources.write(into: includes)
        } catch {
            throw ProtobufError(.protocUnavailable("cannot write the well-known types: \(error)"))
        }
        let paths = importPaths.isEmpty ? ["."] : importPaths
        var arguments = ["--include_imports", "--descriptor_set_out=\(output.path)"]
        arguments += paths.map { "--proto_path=\($0)" }
        arguments.append("--proto_path=\(includes.path)")
        // protoc 3.21 has no `--`: a file named like an option is given as `./-name.proto`.
        arguments += files.map { $0.hasPrefix("-") ? "./" + $0 : $0 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: protoc)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ProtobufError(.protocUnavailable("cannot start \(protoc): \(error.localizedDescription)"))
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let bytes = manager.contents(atPath: output.path) else {
            throw Self.failure(text, status: process.terminationStatus, importPaths: paths, directory: directory)
        }
        return Array(bytes)
    }

    // MARK: - Errors

    /// The first line `protoc` reported, located (`api.proto:3:13: "Foo" is not defined.`); the file name is the
    /// one the user wrote when an import path holds it.
    static func failure(_ text: String, status: Int32, importPaths: [String], directory: String) -> ProtobufError {
        // Warnings (an import path that does not exist, an unused import) come before the error that matters.
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter {
            !$0.isEmpty && !$0.contains(": warning: ")
        }
        guard let first = lines.first else {
            return ProtobufError(.protocFailed("exited with status \(status) and no message"))
        }
        let more = lines.count > 1 ? " (and \(lines.count - 1) more line\(lines.count == 2 ? "" : "s"))" : ""
        let parts = first.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        if parts.count == 4, let line = Int(parts[1]), let column = Int(parts[2]) {
            let file = userPath(of: String(parts[0]), importPaths: importPaths, directory: directory)
            let message = parts[3].trimmingCharacters(in: .whitespaces)
            return ProtobufError(
                .protocFailed(message + more), location: SourceLocation(file: file, line: line, column: column))
        }
        return ProtobufError(.protocFailed(first + more))
    }

    /// `protoc` names files by their path under an import path; the path from the working directory is the one
    /// an editor opens.
    private static func userPath(of virtual: String, importPaths: [String], directory: String) -> String {
        for path in importPaths {
            let candidate = path == "." ? virtual : (path as NSString).appendingPathComponent(virtual)
            let absolute =
                candidate.hasPrefix("/") ? candidate : (directory as NSString).appendingPathComponent(candidate)
            if FileManager.default.fileExists(atPath: absolute) { return candidate }
        }
        return virtual
    }

    private func resolvedExecutable() -> String? {
        if executable.contains("/") {
            return FileManager.default.isExecutableFile(atPath: executable) ? executable : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
