import APITestTestSupport
import Foundation
import Testing

/// Feeds thousands of mutated suites to `apitest validate` and requires, for each, success or errors that name the
/// file with a line and column inside it: never a crash, a signal, an internal error or an unlocated error. The
/// mutants that load must also be valid for `schemas/apitest.schema.json` (the schema is never stricter than
/// the loader).
///
/// The mutants come from the examples and the passing end-to-end cases, changed by a seeded generator (the same
/// files on every run): lines deleted, duplicated or swapped, indentation changed, scalars replaced by values of
/// other types, random bytes and Unicode inserted, the text truncated, keys renamed to near misses. They are
/// validated a few hundred per process; a batch that does not end with exit code 0 or 2 is re-run file by file to
/// name the culprit. `APITEST_FUZZ_SEED` and `APITEST_FUZZ_MUTANTS` (in all, at least 3000) run other or more
/// mutants.
struct ValidateFuzzTests {
    /// The generator's seed; `APITEST_FUZZ_SEED` (a number) explores other mutants.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["APITEST_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x00A9_1735_7E57
    /// How many mutants in all, spread evenly over the sources; `APITEST_FUZZ_MUTANTS` raises it for a longer
    /// search.
    static let mutantCount =
        ProcessInfo.processInfo.environment["APITEST_FUZZ_MUTANTS"].flatMap { Int($0) }.map { max($0, 3000) } ?? 3000
    static let batchSize = 400

    @Test func mutatedSuitesGetALocatedErrorOrLoad() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apitest-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let mutants = try Self.writeMutants(into: directory)
        #expect(mutants.count >= 3000)

        var failures: [String] = []
        var loaded: [URL] = []
        var erroredCount = 0
        for start in stride(from: 0, to: mutants.count, by: Self.batchSize) {
            let batch = Array(mutants[start..<min(start + Self.batchSize, mutants.count)])
            let result = try await SuiteSchemaTests.validate(batch)
            guard result.exitCode == 0 || result.exitCode == 2 else {
                failures += try await Self.culprits(in: batch)
                continue
            }
            let output = ValidateOutput(result.stderr)
            failures += output.unlocated.map { "an error without a location: \($0)" }
            let (failed, foreign) = try Self.checkLocations(
                output, batch: batch, directory: directory, failures: &failures)
            if result.exitCode == 0 {
                if !failed.isEmpty { failures.append("exit 0 with errors in \(failed.count) files") }
            } else if let files = output.summary?.files, (failed.count...failed.count + foreign).contains(files) {
                // Errors inside an included file name that file, not the suite: they account for the rest.
            } else {
                failures.append("the summary names \(output.summary?.files ?? -1) files, the errors \(failed.count)")
            }
            erroredCount += failed.count
            loaded += batch.filter { !failed.contains($0.path) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
        // The mutations are meant to break most suites, but not all of them (deleting a comment changes nothing).
        #expect(erroredCount > mutants.count / 2, "only \(erroredCount) of \(mutants.count) mutants were invalid")
        #expect(!loaded.isEmpty)

        // Editors must not flag what apitest accepts: the schema accepts every mutant that loads. (PyYAML, which
        // the checker uses, rejects a few YAML texts libyaml reads, such as a tab inside a plain scalar; those
        // get no verdict.)
        let (verdicts, output) = try await SuiteSchemaTests.schemaVerdicts(loaded)
        let rejected = loaded.filter { verdicts[$0.path] == "invalid" }
        let examples = rejected.prefix(5).map { file in
            output.stdout.split(separator: "\n").first { $0.contains(file.path) }.map(String.init) ?? file.path
        }
        #expect(
            rejected.isEmpty,
            "the schema rejects \(rejected.count) suites that load, such as:\n\(examples.joined(separator: "\n"))")
        let unread = loaded.filter { verdicts[$0.path] != "valid" && verdicts[$0.path] != "invalid" }
        #expect(unread.count < loaded.count / 10, "PyYAML could not read \(unread.count) of \(loaded.count)")
    }

    /// Checks that every diagnostic names a file of the batch, or a file the suites include (copied beside them),
    /// at a line and column within it; returns the batch files with errors and the number of errors located in
    /// included files.
    private static func checkLocations(
        _ output: ValidateOutput, batch: [URL], directory: URL, failures: inout [String]
    ) throws -> (failed: Set<String>, foreign: Int) {
        let paths = Set(batch.map(\.path))
        var failed: Set<String> = []
        var foreign = 0
        for diagnostic in output.diagnostics {
            if paths.contains(diagnostic.file) {
                if diagnostic.severity == "error" { failed.insert(diagnostic.file) }
            } else if diagnostic.file.hasPrefix(directory.path + "/"),
                FileManager.default.fileExists(atPath: diagnostic.file)
            {
                if diagnostic.severity == "error" { foreign += 1 }
            } else {
                failures.append("a diagnostic names a file outside the test's folder: \(diagnostic)")
                continue
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: diagnostic.file))
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            if diagnostic.line < 1 || diagnostic.line > lines + 1 || diagnostic.column < 1 {
                failures.append("a location outside the file (\(lines) lines): \(diagnostic)")
            }
        }
        return (failed, foreign)
    }

    /// Re-runs a batch that crashed, file by file: the files whose validation does not exit with 0 or 2.
    private static func culprits(in batch: [URL]) async throws -> [String] {
        var found: [String] = []
        for file in batch {
            let result = try await SuiteSchemaTests.validate([file])
            if result.exitCode != 0 && result.exitCode != 2 {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? "<not UTF-8>"
                found.append(
                    "exit \(result.exitCode) for \(file.lastPathComponent):\n\(text.prefix(600))\n"
                        + "stderr: \(result.stderr.suffix(600))")
            }
        }
        if found.isEmpty { found.append("a batch exited abnormally but no single file does") }
        return found
    }

    // MARK: - Mutants

    /// Writes the mutants beside copies of the fixtures their sources name (so file paths still resolve), and
    /// returns their paths in a stable order.
    static func writeMutants(into directory: URL) throws -> [URL] {
        let manager = FileManager.default
        let repository = SuiteSchemaTests.repository
        let sources: [(folder: String, files: [URL])] = [
            ("examples", SuiteSchemaTests.suites(in: repository.appendingPathComponent("examples"))),
            ("cases/passing", SuiteSchemaTests.suites(in: SuiteSchemaTests.cases.appendingPathComponent("passing"))),
        ]
        // The folders beside the sources (fixtures, included files, data, schemas), so their paths still resolve.
        let beside: [(URL, String)] = [
            (repository.appendingPathComponent("examples"), "examples"),
            (SuiteSchemaTests.cases, "cases"),
        ]
        for (folder, name) in beside {
            try manager.createDirectory(
                at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
            for entry in try manager.contentsOfDirectory(atPath: folder.path).sorted()
            where !entry.hasSuffix(".yaml") && !["passing", "failing", "invalid", "schema-invalid"].contains(entry) {
                try manager.copyItem(
                    at: folder.appendingPathComponent(entry),
                    to: directory.appendingPathComponent(name).appendingPathComponent(entry))
            }
        }
        try manager.createDirectory(
            at: directory.appendingPathComponent("cases/passing"), withIntermediateDirectories: true)
        let sourceCount = sources.reduce(0) { $0 + $1.files.count }
        let perSource = (mutantCount + sourceCount - 1) / max(1, sourceCount)
        var generator = SplitMix64(seed: seed)
        var mutants: [URL] = []
        for (folder, files) in sources {
            for file in files {
                let source = try Data(contentsOf: file)
                let stem = file.deletingPathExtension().lastPathComponent
                for index in 0..<perSource {
                    let mutant = Mutator.mutate(source, using: &generator)
                    let url = directory.appendingPathComponent(folder).appendingPathComponent("\(stem)-\(index).yaml")
                    try mutant.write(to: url)
                    mutants.append(url)
                }
            }
        }
        return mutants
    }
}

// MARK: - Mutator

/// Line- and byte-level mutations of a suite's text.
enum Mutator {
    /// Values of every YAML type (and some troublesome ones) that replace a scalar.
    static let replacementScalars = [
        "[1, 2]", "{a: 1}", "~", "true", "-3", "0", "1e999", ".nan", "0x7fffffffffffffffff", "\"{{ x }}\"",
        "'{{'", "\"{{ env.NOPE }}\"", "[]", "{}", "\"\"", "'$.'", "'$[?@.a =='", "'(['", "[[[[[]]]]]", "&a x", "*b",
        "!!binary aGk=", "!!int x", "|\n  block", ">-", "\"\\u0000\"", "'\u{202E}'", "9999999999999999999999", "-0.0",
        "2xx", "999", "10ms", "-1s", "\"\\ud800\"", "🙂", "? a", "- a", "{{ y }}",
    ]

    /// Text inserted at random places: YAML indicators, control characters, invalid UTF-8 and other Unicode.
    static let insertions: [[UInt8]] = [
        Array(":".utf8), Array("- ".utf8), Array("{".utf8), Array("}".utf8), Array("[".utf8), Array("]".utf8),
        Array("\"".utf8), Array("'".utf8), Array("#".utf8), Array("&".utf8), Array("*".utf8), Array("!".utf8),
        Array("%".utf8), Array("@".utf8), Array("`".utf8), Array("|".utf8), Array(">".utf8), Array("\t".utf8),
        Array("\r".utf8), Array("\n".utf8), Array("{{".utf8), Array("}}".utf8), Array("<<: ".utf8), [0], [0x7F],
        [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF], Array("é".utf8), Array("\u{0301}".utf8),
        Array("\u{2028}".utf8), Array("\u{FEFF}".utf8), Array("𝔘".utf8), Array("\u{10FFFF}".utf8),
        Array("\r\n".utf8), Array("...\n".utf8), Array("---\n".utf8),
    ]

    /// One to three mutations of `source`.
    static func mutate(_ source: Data, using generator: inout SplitMix64) -> Data {
        var bytes = [UInt8](source)
        for _ in 0...generator.below(3) {
            bytes = mutateOnce(bytes, using: &generator)
        }
        return Data(bytes)
    }

    private static func mutateOnce(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard !lines.isEmpty else { return bytes }
        let line = generator.below(lines.count)
        switch generator.below(10) {
        case 0: // delete a line
            lines.remove(at: line)
        case 1: // duplicate a line
            lines.insert(lines[line], at: line)
        case 2: // swap two lines
            lines.swapAt(line, generator.below(lines.count))
        case 3: // change the indentation
            let indent = lines[line].prefix { $0 == UInt8(ascii: " ") }.count
            let change = [-4, -2, -1, 1, 2, 4][generator.below(6)]
            let newIndent = max(0, indent + change)
            lines[line] = Array(repeating: UInt8(ascii: " "), count: newIndent) + lines[line].dropFirst(indent)
        case 4, 5: // replace a scalar with another type
            lines[line] = replaceScalar(in: lines[line], using: &generator)
        case 6: // insert bytes
            let insertion = insertions[generator.below(insertions.count)]
            let at = generator.below(lines[line].count + 1)
            lines[line].insert(contentsOf: insertion, at: at)
        case 7: // truncate
            return Array(bytes.prefix(generator.below(bytes.count + 1)))
        default: // rename a key to a near miss
            lines[line] = renameKey(in: lines[line], using: &generator)
        }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// The line with the value after its first `: ` (or the item after `- `) replaced.
    private static func replaceScalar(in line: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        let replacement = Array(replacementScalars[generator.below(replacementScalars.count)].utf8)
        var separators: [Int] = []
        for index in line.indices.dropLast()
        where (line[index] == UInt8(ascii: ":") || line[index] == UInt8(ascii: "-"))
            && line[index + 1] == UInt8(ascii: " ")
        {
            separators.append(index + 2)
        }
        guard !separators.isEmpty else { return line + replacement }
        let start = separators[generator.below(separators.count)]
        // Up to the end of a flow item or of the line.
        var end = start
        while end < line.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(line[end]) {
            end += 1
        }
        return Array(line[..<start]) + replacement + Array(line[end...])
    }

    /// The line with one key (`word:`) misspelled: a letter dropped, doubled, swapped or changed in case.
    private static func renameKey(in line: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var keys: [Range<Int>] = []
        var index = 0
        while index < line.count {
            guard isWordByte(line[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < line.count, isWordByte(line[index]) { index += 1 }
            if index < line.count, line[index] == UInt8(ascii: ":") { keys.append(start..<index) }
        }
        guard !keys.isEmpty else { return line }
        let key = keys[generator.below(keys.count)]
        var word = Array(line[key])
        let at = generator.below(word.count)
        switch generator.below(4) {
        case 0: if word.count > 1 { word.remove(at: at) }
        case 1: word.insert(word[at], at: at)
        case 2: if at + 1 < word.count { word.swapAt(at, at + 1) } else { word.append(UInt8(ascii: "s")) }
        default: word[at] ^= 0x20
        }
        return Array(line[..<key.lowerBound]) + word + Array(line[key.upperBound...])
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
