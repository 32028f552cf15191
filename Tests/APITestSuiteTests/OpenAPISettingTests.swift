import APITestOpenAPI
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

/// `openapi:` in a suite and in included settings files, and `--openapi` (the loader's default): parsed once, file
/// checked, problems located.
@Suite("openapi setting")
struct OpenAPISettingTests {
    static let spec = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /a: {get: {operationId: a, responses: {'200': {description: ok}}}}
          /b: {get: {responses: {'200': {description: ok}}}}

        """

    @Test("a path, or a map of file, server, strict and ignore")
    func forms() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(Self.spec, to: "api/openapi.yaml", in: directory)
        let short = try loadSuite(
            "openapi: api/openapi.yaml\ntests: [{name: t, request: {url: 'http://h/'}}]\n", file: "\(directory)/s.yaml")
        #expect(short.openapi?.path == "api/openapi.yaml")
        #expect(short.openapi?.absolutePath == "\(directory)/api/openapi.yaml")
        #expect(short.openapi?.strict == false)
        #expect(short.openapi?.location == SourceLocation(file: "\(directory)/s.yaml", line: 1, column: 1))
        let long = try loadSuite(
            """
            openapi: {file: api/openapi.yaml, server: "https://staging.example.com/v2", strict: true, ignore: [a, "GET /b"]}
            tests: [{name: t, request: {url: 'http://h/'}}]
            """, file: "\(directory)/s.yaml")
        #expect(long.openapi?.server == "https://staging.example.com/v2")
        #expect(long.openapi?.strict == true)
        #expect(long.openapi?.ignore == ["a", "GET /b"])
        let path = try loadSuite(
            "openapi: {file: api/openapi.yaml, server: /v2}\ntests: [{name: t, request: {url: 'http://h/'}}]\n",
            file: "\(directory)/s.yaml")
        #expect(path.openapi?.server == "/v2")
    }

    @Test("mistakes are located errors")
    func mistakes() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(Self.spec, to: "api.yaml", in: directory)
        let file = "\(directory)/s.yaml"
        let tests = "tests: [{name: t, request: {url: 'http://h/'}}]\n"
        #expect(
            errors("openapi: nope.yaml\n" + tests, file: file) == [
                "\(file):1:10: error: openapi 'nope.yaml' does not exist (looked for \(directory)/nope.yaml)"
            ])
        #expect(
            errors("openapi: {fiel: api.yaml}\n" + tests, file: file) == [
                "\(file):1:10: error: 'openapi' needs 'file': the path of the OpenAPI document",
                "\(file):1:11: error: unknown key 'fiel' in openapi; did you mean 'file'?",
            ])
        #expect(
            errors("openapi: {file: api.yaml, server: staging}\n" + tests, file: file) == [
                "\(file):1:35: error: 'openapi.server' must be a URL (https://api.example.com/v2) or a path starting with '/'"
            ])
        #expect(
            errors("openapi: {file: api.yaml, server: 'http://{{ host }}/v2'}\n" + tests, file: file) == [
                "\(file):1:35: error: 'openapi.server' cannot use placeholders: the contract is read when the suite loads"
            ])
        #expect(
            errors("openapi: {file: api.yaml, strict: maybe}\n" + tests, file: file).first?.contains(
                "1:35: error:") == true)
        #expect(
            errors("openapi: {file: api.yaml, ignore: getPets}\n" + tests, file: file).first?.contains(
                "expected a list for 'ignore'") == true)
    }

    @Test("the document is loaded with the suite: its problems are errors at their places in the document")
    func contractProblems() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(Self.spec, to: "good.yaml", in: directory)
        try writeFile(
            """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /pets:
                get:
                  responses:
                    '200':
                      content:
                        application/json:
                          schema: {$ref: 'schemas.yaml#/Pet'}
                    abc: {description: nope}
            """, to: "bad.yaml", in: directory)
        let tests = "tests: [{name: t, request: {url: 'http://h/'}}]\n"
        let good = try loadSuite("openapi: good.yaml\n" + tests, file: "\(directory)/s.yaml")
        #expect(good.contract?.contract.operations.map(\.displayName) == ["a", "GET /b"])
        #expect(good.contract?.setting == good.openapi)
        let file = "\(directory)/s.yaml"
        let problems = errors("openapi: bad.yaml\n" + tests, file: file)
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix(
                    "\(directory)/bad.yaml:10:24: error: openapi 'bad.yaml', at "
                        + "/paths/~1pets/get/responses/200/content/application~1json/schema")
                    && $0.contains(": $ref \"schemas.yaml#/Pet\" names")
            }, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix(
                    "\(directory)/bad.yaml:11:9: error: openapi 'bad.yaml', at /paths/~1pets/get/responses/abc: ")
            }, "\(problems)"
        )
        // The document's lines are shown with its problems.
        do {
            _ = try loadSuite("openapi: bad.yaml\n" + tests, file: file)
        } catch {
            #expect(error.render().contains("abc: {description: nope}"), "\(error.render())")
        }
        let notOpenAPI = errors("openapi: s.yaml\n" + tests, file: file)
        #expect(notOpenAPI.count == 1)
        // An ignore entry that names nothing is the suite's mistake: located at its openapi key.
        let ignore = errors(
            "tests: [{name: t, request: {url: 'http://h/'}}]\nopenapi: {file: good.yaml, ignore: [nope]}\n", file: file)
        #expect(ignore.count == 1)
        #expect(ignore.first?.hasPrefix("\(file):2:1: error: openapi 'good.yaml': ") == true, "\(ignore)")
        #expect(ignore.first?.contains("nope") == true)
    }

    @Test("an included file's openapi applies unless the suite has its own; --openapi applies to suites with none")
    func inheritance() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(Self.spec, to: "shared/api.yaml", in: directory)
        try writeFile(Self.spec, to: "own.yaml", in: directory)
        try writeFile(Self.spec, to: "cli.yaml", in: directory)
        try writeFile("openapi: {file: api.yaml, strict: true}\n", to: "shared/common.yaml", in: directory)
        let tests = "tests: [{name: t, request: {url: 'http://h/'}}]\n"
        let included = try loadSuite("include: shared/common.yaml\n" + tests, file: "\(directory)/a.yaml")
        // Relative to the file that names it.
        #expect(included.openapi?.absolutePath == "\(directory)/shared/api.yaml")
        #expect(included.openapi?.strict == true)
        let own = try loadSuite(
            "include: shared/common.yaml\nopenapi: own.yaml\n" + tests, file: "\(directory)/b.yaml")
        #expect(own.openapi?.absolutePath == "\(directory)/own.yaml")
        #expect(own.openapi?.strict == false)

        var loader = SuiteLoader(environment: [:])
        loader.defaultOpenAPI = OpenAPISetting(
            path: "cli.yaml", absolutePath: "\(directory)/cli.yaml",
            location: SourceLocation(file: "", line: 0, column: 0))
        let none = try loader.load(source: tests, file: "\(directory)/c.yaml")
        #expect(none.openapi?.absolutePath == "\(directory)/cli.yaml")
        #expect(none.openapi?.location == SourceLocation(file: "\(directory)/c.yaml", line: 1, column: 1))
        let named = try loader.load(source: "openapi: own.yaml\n" + tests, file: "\(directory)/d.yaml")
        #expect(named.openapi?.absolutePath == "\(directory)/own.yaml")
        let inherited = try loader.load(source: "include: shared/common.yaml\n" + tests, file: "\(directory)/e.yaml")
        #expect(inherited.openapi?.absolutePath == "\(directory)/shared/api.yaml")
    }
}
