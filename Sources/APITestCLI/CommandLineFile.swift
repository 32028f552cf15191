import APITestSupport
import ArgumentParser

/// The check of a file named on the command line (`--ca-file`, `--variables-file`, ...): the same as for a file
/// named by a suite key (``ReadableFile``), before anything opens it, so that a FIFO or a device never blocks
/// apitest in `open(2)`.
enum CommandLineFile {
    /// Throws the usage error (exit code 2) naming `flag` and `path` when `path` is not a readable regular file.
    static func check(_ path: String, flag: String) throws {
        if let problem = ReadableFile.problem(at: FilePaths.absolute(path)) {
            throw ValidationError(problem.message(key: flag, path: path))
        }
    }

    /// Throws the usage error for a suite path that exists but is neither a folder nor a regular file (a FIFO, a
    /// device); a missing or unreadable one is left to suite discovery, which reports it in its own words.
    static func checkSuitePath(_ path: String) throws {
        if let problem = ReadableFile.problem(at: FilePaths.absolute(path)), problem == .notRegular {
            throw ValidationError(problem.message(key: "suite path", path: path))
        }
    }
}
