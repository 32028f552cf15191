import Foundation
import Testing

/// Every ```yaml block of README.md and docs/*.md is checked, so a documented example cannot be wrong (issue 37):
/// a block marked `<!-- apitest: runnable -->` runs with the built `apitest` against a demo API the test starts
/// (`--var port=PORT`) and must pass; a block marked `<!-- apitest: fragment -->` (part of a suite, or YAML that is
/// not a suite) must parse as YAML; any other block is a suite that must load (`apitest validate`). The marker is
/// an HTML comment on a line of its own among the comment lines right above the fence. A block whose first line is
/// `# PATH.yaml` is written as that file (so a later block can include it); every `{{ env.NAME }}` a block names is
/// set. Failures name the document and the line of the block's fence. See docs/development.md.
@Suite struct DocsExamplesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose YAML blocks are checked, relative to the repository.
    static let documents: [String] = {
        let docs = repository.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    /// The value every environment variable a block names is given.
    static let environmentValue = "docs-example"

    // MARK: - Blocks

    /// What a block's marker says to do with it.
    enum Kind: String {
        case runnable, fragment, suite
    }

    /// One ```yaml block of a document.
    struct Block {
        /// `docs/x.md:12`: the document and the line of the opening fence.
        var place: String
        var line: Int
        var kind: Kind
        /// The block's text, its fence's indentation removed, ending with a newline.
        var text: String
        /// The file it is written as, relative to the document's folder.
        var fileName: String
        /// `{{ env.NAME }}` names in the block.
        var environmentNames: Set<String>
    }

    /// The ```yaml blocks of `text` (the document `document`), or the problems of its markers.
    static func blocks(of text: String, document: String) -> (blocks: [Block], problems: [String]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var problems: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("```yaml"), trimmed.dropFirst(7).allSatisfy({ $0 == " " }) else {
                index += 1
                continue
            }
            let indent = line.count - trimmed.count
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
                index += 1
            }
            index += 1
            let place = "\(document):\(start + 1)"
            var kind = Kind.suite
            var above = start - 1
            while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("<!--") {
                let comment = lines[above].trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("<!-- apitest:") {
                    let word = comment.dropFirst("<!-- apitest:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
                    if let marked = Kind(rawValue: word), marked != .suite {
                        kind = marked
                    } else {
                        problems.append("\(place): unknown marker '\(comment)'; write runnable or fragment")
                    }
                }
                above -= 1
            }
            let text = body.joined(separator: "\n") + "\n"
            var fileName = "example-\(start + 1).yaml"
            if let first = body.first, first.hasPrefix("# "), first.hasSuffix(".yaml"),
                !first.dropFirst(2).contains(" "), !first.contains("..")
            {
                fileName = String(first.dropFirst(2))
            }
            blocks.append(
                Block(
                    place: place, line: start + 1, kind: kind, text: text, fileName: fileName,
                    environmentNames: environmentNames(in: text)))
        }
        return (blocks, problems)
    }

    /// The names of the `env.NAME` references in `text`.
    static func environmentNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "env.") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, name.first?.isNumber == false { names.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return names
    }

    // MARK: - Tests

    @Test func theExtractorFindsBlocksMarkersAndFiles() {
        let text = """
            Intro.

            <!-- apitest: runnable -->
            ```yaml
            name: a
            ```

            <!-- apitest: fragment -->
            <!-- recipe: x -->
            ```yaml
            # shared/common.yaml
            baseURL: "{{ env.BASE_URL }}"
            ```

            1. In a list:
               ```yaml
               tests: []
               ```
            <!-- apitest: runable -->
            ```yaml
            a: 1
            ```
            """
        let (blocks, problems) = Self.blocks(of: text, document: "d.md")
        #expect(blocks.map(\.place) == ["d.md:4", "d.md:10", "d.md:16", "d.md:20"])
        #expect(blocks.map(\.kind) == [.runnable, .fragment, .suite, .suite])
        #expect(blocks[1].fileName == "shared/common.yaml")
        #expect(blocks[1].environmentNames == ["BASE_URL"])
        #expect(blocks[2].text == "tests: []\n")
        #expect(problems == ["d.md:20: unknown marker '<!-- apitest: runable -->'; write runnable or fragment"])
    }

    @Test func theDocumentsHoldRunnableExamples() throws {
        var runnable = 0
        for document in Self.documents {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
            runnable += Self.blocks(of: text, document: document).blocks.filter { $0.kind == .runnable }.count
        }
        #expect(runnable >= 5, "only \(runnable) runnable YAML examples in README.md and docs/")
    }

    @Test(arguments: documents)
    func everyYAMLExampleOfTheDocumentHolds(_ document: String) async throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
        let (blocks, problems) = Self.blocks(of: text, document: document)
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
        guard !blocks.isEmpty else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for block in blocks {
            let file = folder.appendingPathComponent(block.fileName)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try block.text.write(to: file, atomically: true, encoding: .utf8)
        }
        let fragments = blocks.filter { $0.kind == .fragment }
        if !fragments.isEmpty { try await Self.parseAsYAML(fragments, in: folder) }
        for block in blocks where block.kind != .fragment {
            try await Self.check(block, in: folder)
        }
    }

    // MARK: - Checking a block

    /// Runs (`runnable`) or validates (`suite`) `block`, written in `folder`.
    static func check(_ block: Block, in folder: URL) async throws {
        var environment = ["NO_COLOR": "1"]
        for name in block.environmentNames { environment[name] = environmentValue }
        let apitest = try TestBinaries.url("apitest")
        let file = folder.appendingPathComponent(block.fileName)
        switch block.kind {
        case .fragment:
            return
        case .suite:
            let result = try await runProcess(
                apitest, ["validate", file.path], environment: environment, currentDirectory: folder)
            if result.exitCode != 0 {
                Issue.record(
                    Comment(
                        rawValue: "\(block.place): the example does not load (apitest validate exit \(result.exitCode);"
                            + " mark it <!-- apitest: fragment --> if it is not a whole suite):\n"
                            + result.stdout + result.stderr))
            }
        case .runnable:
            let demo = try await DemoServer.start()
            defer { demo.stop() }
            let result = try await runProcess(
                apitest, ["run", file.path, "--var", "port=\(demo.port)"], environment: environment,
                currentDirectory: folder)
            let passed = result.stdout.contains(" passed") && !result.stdout.contains(": 0 passed")
            if result.exitCode != 0 || !passed {
                Issue.record(
                    Comment(
                        rawValue: "\(block.place): the runnable example does not pass against the demo API"
                            + " (apitest run --var port=\(demo.port), exit \(result.exitCode)):\n"
                            + result.stdout + result.stderr))
            }
        }
    }

    /// Parses every fragment with PyYAML (as the CI recipes are read), recording those that do not parse.
    static func parseAsYAML(_ fragments: [Block], in folder: URL) async throws {
        let script = """
            import sys, yaml
            for path in sys.argv[1:]:
                try:
                    list(yaml.safe_load_all(open(path, encoding="utf-8")))
                except yaml.YAMLError as error:
                    print(path + "\\t" + str(error).replace("\\n", " "))
            """
        let result = try await runProcess(
            try TestBinaries.tool("python3"),
            ["-c", script] + fragments.map { folder.appendingPathComponent($0.fileName).path })
        #expect(result.exitCode == 0, "python3: \(result.stderr)")
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let block = fragments.first { folder.appendingPathComponent($0.fileName).path == parts.first }
            Issue.record(
                Comment(
                    rawValue: "\(block?.place ?? parts[0]): the fragment is not valid YAML: \(parts.last ?? "")"))
        }
    }
}
