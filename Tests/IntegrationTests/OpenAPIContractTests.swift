import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `openapi:` end to end against the real demo: the examples hold to the demo's own OpenAPI document with no
/// response mismatch, the coverage file validates against its schema (Python's jsonschema) and adds up, the HTML
/// report has the coverage table, and hostile documents fail to load with located errors, never a hang or a fetch.
@Suite struct OpenAPIContractTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let spec = repository.appendingPathComponent("examples/.openapi/openapi.yaml")

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-openapi-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func theExamplesHoldToTheDemosOwnDocumentAndTheCoverageFileValidates() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coverage = directory.appendingPathComponent("coverage.json")
        let html = directory.appendingPathComponent("report.html")
        let run = try await runProcess(
            try TestBinaries.url("apitest"),
            [
                "run", "examples", "--var", "port=\(demo.port)", "--openapi", Self.spec.path, "--no-color",
                "--report-openapi-coverage", coverage.path, "--report-html", html.path,
            ],
            currentDirectory: Self.repository, timeout: .seconds(60))
        #expect(run.exitCode == 0, "\(run.stdout)\n\(run.stderr)")
        let failed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("✘ ") || $0.hasPrefix("! ") }
        #expect(failed.isEmpty, "a response broke the contract:\n\(run.stdout)")
        // The one warning the examples earn: a test that sends a user without its required name on purpose (to
        // see the 400) breaks the request contract, and says so.
        let warnings = run.stdout.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first?.contains("createUser (POST /api/users) request: (root): missing required property") == true)
        #expect(run.stdout.contains("OpenAPI examples/.openapi/openapi.yaml: "), "\(run.stdout)")

        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[2]))
            jsonschema.Draft202012Validator.check_schema(schema)
            document = json.load(open(sys.argv[1]))
            jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
            doc = document["documents"][0]
            ops = doc["operations"]
            hit = [o for o in ops if o["calls"] > 0]
            responses = sum(len(o["responses"]) for o in ops)
            responses_hit = sum(1 for o in ops for r in o["responses"] if r["hits"] > 0)
            assert document["totals"] == {"operations": len(ops), "operationsHit": len(hit), "responses": responses, "responsesHit": responses_hit}, document["totals"]
            health = next(o for o in ops if o.get("operationId") == "listUsers")
            print(doc["file"], doc["openapi"], len(ops) > 50, len(hit) >= 10, health["calls"] > 0, health["responses"][0]["status"])
            """
        let checked = try await runProcess(
            try TestBinaries.tool("python3"),
            [
                "-c", script, coverage.path,
                Self.repository.appendingPathComponent("schemas/openapi-coverage.schema.json").path,
            ])
        #expect(checked.exitCode == 0, "\(checked.stderr)")
        #expect(checked.stdout == "examples/.openapi/openapi.yaml 3.1.0 True True True 200\n", "\(checked.stdout)")

        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.contains("<h2>OpenAPI coverage: examples/.openapi/openapi.yaml</h2>"))
        #expect(page.contains("<td>getHealth</td>"))
    }

    @Test func hostileDocumentsFailToLoadWithLocatedErrorsAndNeverFetch() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let documents: [(String, String, String)] = [
            (
                "cycle.yaml",
                """
                openapi: 3.1.0
                info: {title: t, version: '1'}
                paths:
                  /a: {$ref: '#/paths/~1b'}
                  /b: {$ref: '#/paths/~1a'}
                """, "cycle.yaml:4:"
            ),
            (
                "remote.yaml",
                """
                openapi: 3.0.3
                info: {title: t, version: '1'}
                paths:
                  /a:
                    get:
                      responses:
                        '200':
                          description: ok
                          content: {application/json: {schema: {$ref: 'http://127.0.0.1:9/schema.json'}}}
                """, "remote.yaml:9:"
            ),
            ("swagger.yaml", "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n", "swagger.yaml:1:1"),
            ("future.yaml", "openapi: 4.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n", "future.yaml:1:"),
        ]
        for (name, text, place) in documents {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            try "openapi: \(name)\ntests: [{name: t, request: {url: 'http://127.0.0.1:9/a'}}]\n".write(
                to: directory.appendingPathComponent("suite-\(name)"), atomically: true, encoding: .utf8)
            let result = try await runProcess(
                try TestBinaries.url("apitest"), ["validate", "suite-\(name)", "--no-color"],
                currentDirectory: directory, timeout: .seconds(20))
            #expect(result.exitCode == 2, "\(name): \(result.stdout)\(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(output.contains(place), "\(name): \(output)")
            #expect(output.contains("openapi '\(name)'"), "\(name): \(output)")
        }
    }

    @Test func aReferenceToAFIFOIsAnErrorAtOnceNotABlockedRead() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("schemas.yaml").path, 0o600) == 0)
        try """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /a:
            get:
              responses:
                '200':
                  description: ok
                  content: {application/json: {schema: {$ref: 'schemas.yaml#/Pet'}}}
        """.write(to: directory.appendingPathComponent("api.yaml"), atomically: true, encoding: .utf8)
        try "openapi: api.yaml\ntests: [{name: t, request: {url: 'http://127.0.0.1:9/a'}}]\n".write(
            to: directory.appendingPathComponent("suite.yaml"), atomically: true, encoding: .utf8)
        let result = try await runProcess(
            try TestBinaries.url("apitest"), ["validate", "suite.yaml", "--no-color"], currentDirectory: directory,
            timeout: .seconds(20))
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("api.yaml:9:"), "\(output)")
        #expect(output.contains("not a regular file"), "\(output)")
    }

    @Test func aTenMegabyteDocumentLoadsInBoundedTime() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Shaped like the large public documents (GitHub's, Stripe's: about 10 MB for a thousand or two operations):
        // long descriptions and inline schemas of many properties, shared components.
        var text = "openapi: 3.1.0\ninfo: {title: big, version: '1'}\npaths:\n"
        text.reserveCapacity(11_000_000)
        let description = String(repeating: "Returns the item with every field the API knows of. ", count: 40)
        let properties = (0..<40).map { "field\($0): {type: string, description: \"field \($0) of the item\"}" }
            .joined(separator: ", ")
        var index = 0
        while text.utf8.count < 10_000_000 {
            text += "  /items\(index)/{id}:\n    get:\n      operationId: get\(index)\n"
            text += "      description: \"\(description)\"\n"
            text += "      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]\n"
            text += "      responses:\n        '200':\n          description: ok\n"
            text += "          content: {application/json: {schema: {type: object, required: [id], properties: {"
            text += "id: {type: integer}, owner: {$ref: '#/components/schemas/Item\(index % 100)'}, \(properties)}}}}\n"
            text +=
                "        default: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}\n"
            index += 1
        }
        text += "components:\n  schemas:\n"
        text += "    Error: {type: object, required: [message], properties: {message: {type: string}}}\n"
        for schema in 0..<100 {
            text +=
                "    Item\(schema): {type: object, required: [id], properties: {id: {type: integer}, name: {type: string}}}\n"
        }
        try text.write(to: directory.appendingPathComponent("big.yaml"), atomically: true, encoding: .utf8)
        try "openapi: big.yaml\ntests: [{name: t, request: {url: 'http://127.0.0.1:9/items1/2'}}]\n".write(
            to: directory.appendingPathComponent("suite.yaml"), atomically: true, encoding: .utf8)
        // bash's `times` prints the CPU time its children used (user, then system), which the other tests sharing the
        // machine do not inflate the way they inflate wall time (a clean-clone CI run took 116 s of wall time for
        // about 4 s of CPU).
        let script = #""$0" "$@"; status=$?; times >&2; exit $status"#
        let result = try await runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", script, try TestBinaries.url("apitest").path, "validate", "suite.yaml"],
            currentDirectory: directory, timeout: .seconds(600))
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let cpu = try #require(Self.childrenCPUSeconds(fromTimesOutput: result.stderr), "\(result.stderr)")
        print("a \(text.utf8.count / 1_000_000) MB OpenAPI document with \(index) operations loaded in \(cpu) s of CPU")
        // About 4 s of CPU in a debug build on the development machine (loading is linear in the number of operations).
        #expect(cpu < 30)
    }

    /// The user + system seconds on the last line of bash's `times` output (the children's), as in `0m4.170s 0m0.104s`.
    static func childrenCPUSeconds(fromTimesOutput text: String) -> Double? {
        guard let line = text.split(separator: "\n").last else { return nil }
        let fields = line.split(separator: " ")
        guard fields.count == 2 else { return nil }
        var total = 0.0
        for field in fields {
            let parts = field.dropLast().split(separator: "m")
            guard field.hasSuffix("s"), parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1])
            else { return nil }
            total += minutes * 60 + seconds
        }
        return total
    }
}
