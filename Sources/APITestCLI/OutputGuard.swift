import APITestSupport
import Foundation

/// The one check every command that writes makes before it writes anything (and `run` and `load` before they send
/// anything): no output is a file the command reads.
///
/// An output (a report, `--curl`, `import -o`, a file `generate` writes, and standard output when it is redirected
/// to a file) is refused when it is the same file as an input (a suite, a file a suite includes or names, a
/// `--variables-file`, an OpenAPI document, a report being merged, an import's source, ...): the same device and
/// inode after symbolic links are followed, so a link, a hard link or another spelling of the path is caught; an
/// output that does not exist yet is compared by its path with its links resolved.
struct OutputGuard {
    // MARK: - Inputs

    /// What an input is to the command, for the message.
    enum Role: Sendable, Hashable {
        /// A suite file.
        case suite
        /// A file a suite reads: one it includes, or names (`bodyFile`, `schema`, `forEach`, `openapi`, ...).
        case readBySuite(String)
        /// A file the suites read (`bodyFile`, `schema`, `forEach`, ...), found by the check every file read gets.
        case readBySuites
        /// A file named by a flag (`--variables-file`, `--openapi`, `-f`, ...).
        case flag(String)
        /// A file named by an argument, described (`the HAR file`, `the report`).
        case argument(String)
        /// Standard input, when it is a file.
        case standardInput

        /// How the message names an input with this role at `path`.
        func phrase(_ path: String) -> String {
            switch self {
            case .suite: "the suite '\(path)'"
            case .readBySuite(let suite): "'\(path)', which the suite '\(suite)' reads"
            case .readBySuites: "'\(path)', which the suites read"
            case .flag(let flag): "the \(flag) file '\(path)'"
            case .argument(let description): "\(description) '\(path)'"
            case .standardInput: "standard input"
            }
        }
    }

    /// A file the command reads.
    struct Input: Sendable, Hashable {
        /// What it is to the command.
        var role: Role
        /// Its path as the command names it.
        var path: String
        /// The file, when it exists.
        var identity: FileIdentity?
        /// Its path, absolute, symbolic links resolved.
        var canonical: String
    }

    /// An output that is an input.
    struct Conflict: Error, Sendable, Hashable, CustomStringConvertible {
        /// The flag that names the output (`--report-junit`, `-o`), or `standard output`.
        var output: String
        /// The output's path as given; `nil` for standard output.
        var path: String?
        /// The input it would overwrite.
        var input: Input

        var description: String {
            let named = path.map { "\(output) '\($0)'" } ?? output
            return "\(named) is \(input.role.phrase(input.path)): apitest never writes over a file it reads"
        }
    }

    /// The inputs so far, in the order added.
    private(set) var inputs: [Input] = []
    /// The files of `inputs` that exist, and the paths of those that do not, to add each file once.
    private var known: (identities: Set<FileIdentity>, paths: Set<String>) = ([], [])

    /// Adds the file at `path` as an input with `role`.
    mutating func add(_ path: String, as role: Role) {
        let identity = FileIdentity(path: path)
        let input = Input(role: role, path: path, identity: identity, canonical: Self.resolved(path))
        // The first role given to a file is the one its message names.
        let new = identity.map { known.identities.insert($0).inserted } ?? known.paths.insert(input.canonical).inserted
        if new { inputs.append(input) }
    }

    /// Adds standard input when it is a regular file (`< file`), which a command reading it reads.
    mutating func addStandardInput() {
        guard let identity = FileIdentity(descriptor: STDIN_FILENO), identity.isRegular else { return }
        inputs.append(Input(role: .standardInput, path: "standard input", identity: identity, canonical: ""))
    }

    // MARK: - Checking

    /// The input that the output `path` (named by `flag`) would overwrite, or `nil`.
    func conflict(output path: String, flag: String) -> Conflict? {
        guard !path.isEmpty else { return nil }
        let identity = FileIdentity(path: path)
        if let identity {
            // A device or a FIFO is written through, never replaced; inputs are regular files.
            guard identity.isRegular else { return nil }
            if let input = inputs.first(where: { $0.identity == identity }) {
                return Conflict(output: flag, path: path, input: input)
            }
            return nil
        }
        let canonical = Self.resolved(path)
        if let input = inputs.first(where: { !$0.canonical.isEmpty && $0.canonical == canonical }) {
            return Conflict(output: flag, path: path, input: input)
        }
        return nil
    }

    /// The input that standard output, when it is redirected to a file, is; `nil` when it is none.
    func standardOutputConflict() -> Conflict? {
        guard let identity = FileIdentity(descriptor: STDOUT_FILENO), identity.isRegular else { return nil }
        guard let input = inputs.first(where: { $0.identity == identity }) else { return nil }
        return Conflict(output: "standard output", path: nil, input: input)
    }

    /// Checks `outputs` (each a flag and the path given to it) and, when `standardOutput`, standard output: for the
    /// first that is an input, prints `error: …; <consequence>` on `errorOutput` and throws exit status 2.
    func check(
        _ outputs: [(flag: String, path: String)], standardOutput: Bool = true, errorOutput: StandardOutput,
        consequence: String = "nothing was run"
    ) throws {
        var found = outputs.lazy.compactMap { conflict(output: $0.path, flag: $0.flag) }.first
        if found == nil, standardOutput { found = standardOutputConflict() }
        guard let found else { return }
        errorOutput.write("error: \(found); \(consequence)\n")
        errorOutput.flush()
        throw ExitStatus.invalid.exitCode
    }

    // MARK: - Paths

    /// `path` absolute, with every symbolic link resolved, also those of a last component that names nothing yet (a
    /// dangling link names the file that writing would make).
    static func resolved(_ path: String) -> String {
        var current = FilePaths.absolute(path)
        for _ in 0..<40 {
            guard let link = readLink(current) else { break }
            current = FilePaths.absolute(link, relativeTo: FilePaths.directory(of: current))
        }
        if FileIdentity(path: current) != nil { return FilePaths.canonical(current) }
        let name = current.split(separator: "/").last.map(String.init) ?? ""
        let folder = FilePaths.canonical(FilePaths.directory(of: current))
        return (folder == "/" ? "" : folder) + "/" + name
    }

    /// The target of the symbolic link at `path`, or `nil` when `path` is not one.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
