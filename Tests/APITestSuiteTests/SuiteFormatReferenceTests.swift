import APITestJSON
import APITestSupport
import Foundation
import Testing

@testable import APITestSuite
@testable import APITestYAML

/// `docs/suite-format.md` and `schemas/apitest.schema.json` against the loader: every key, query, filter and
/// predicate the loader accepts is documented in its section of the reference and appears in the schema, every
/// map key has an example, and every YAML example of the reference loads without errors.
struct SuiteFormatReferenceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let reference = Reference(
        (try? String(contentsOf: repository.appendingPathComponent("docs/suite-format.md"), encoding: .utf8)) ?? "")

    // MARK: - Every key is documented

    /// The loader's key lists, each with the section of the reference that documents it.
    static let keyLists: [(name: String, keys: [String], section: String)] = [
        ("suite", SuiteParser.keys, "## Top level"),
        ("defaults", SettingsParser.defaultsKeys, "### `defaults`"),
        ("test", TestParser.keys, "## Tests"),
        ("step", StepParser.keys, "## Tests"),
        ("forEach", ["file"], "### Data-driven tests"),
        ("a step's forEach", StepLoop.keys, "### Conditions and loops"),
        ("retry", RetryParser.keys, "### Retry and polling"),
        ("security", SecurityParser.keys, "### `security`"),
        ("included file", IncludeParser.keys, "### `include`"),
        ("response", responseKeys, "### `response`"),
        ("request", RequestParser.keys, "## Request"),
        ("basicAuth", RequestParser.basicAuthKeys, "## Request"),
        ("multipart part", BodyParser.multipartPartKeys, "### Multipart bodies"),
        ("auth", AuthSpec.kinds, "### Authentication"),
        ("auth credentials", AuthParser.credentialKeys, "### Authentication"),
        ("awsSigV4", AuthParser.awsSigV4Keys, "### Authentication"),
        ("oauth2", OAuth2Spec.keys, "### Authentication"),
        ("transport", TransportSpec.keys, "### Transport"),
        ("expect", ExpectParser.keys, "## Expect"),
        ("capture and assert", CaptureParser.keys, "### Queries and the general form"),
        ("websocket", WebSocketParser.Key.names, "### WebSocket steps"),
        ("websocket action", WebSocketParser.ActionKey.names, "### WebSocket steps"),
        ("websocket close", WebSocketParser.CloseKey.names, "### WebSocket steps"),
        ("grpc", GRPCParser.Key.names, "### gRPC steps"),
    ]

    /// The keys of `response:`.
    static let responseKeys = ResponseDecodingParser.keys

    /// Names that are values rather than keys, each with its section.
    static let nameLists: [(name: String, names: [String], section: String)] = [
        ("plain queries", Query.plainQueries.keys.sorted(), "### Queries and the general form"),
        ("cookie attributes", CookieAttribute.allCases.map(\.rawValue), "### Queries and the general form"),
        ("filters", Filter.names, "### Filters"),
        ("predicates", Predicate.names, "### Predicates"),
        ("types", ValueType.names, "### Predicates"),
        ("certificate fields", CertificateField.allCases.map(\.rawValue), "## Expect"),
        ("image fields", ImageField.allCases.map(\.rawValue), "## Expect"),
        ("plist formats", PropertyListFormat.allCases.map(\.rawValue), "## Request"),
        ("decoders", ResponseDecoding.decoderNames, "### `response`"),
        ("functions", ExpressionFunctions.table.keys.sorted(), "## Expressions and functions"),
    ]

    @Test(arguments: keyLists.map(\.name))
    func everyKeyIsDocumentedInItsSectionWithAnExample(_ name: String) throws {
        let list = try #require(Self.keyLists.first { $0.name == name })
        let words = try #require(Self.reference.codeWords(inSection: list.section), "no section \(list.section)")
        for key in list.keys {
            #expect(words.contains(key), "'\(key)' (\(name)) is not documented under \(list.section)")
            #expect(Self.reference.hasExample(ofKey: key), "no YAML example uses '\(key):'")
        }
    }

    @Test(arguments: nameLists.map(\.name))
    func everyNameIsDocumentedInItsSection(_ name: String) throws {
        let list = try #require(Self.nameLists.first { $0.name == name })
        let words = try #require(Self.reference.codeWords(inSection: list.section), "no section \(list.section)")
        #expect(!list.names.isEmpty)
        for word in list.names {
            #expect(words.contains(word), "'\(word)' (\(name)) is not documented under \(list.section)")
        }
    }

    // MARK: - Every key is in the schema

    /// Keys the schema may have ahead of the loader (documented by work not merged yet); compared neither way.
    static let schemaOnlyKeys: Set<String> = []

    @Test func everyLoaderKeyIsInTheSchema() throws {
        let data = try Data(contentsOf: Self.repository.appendingPathComponent("schemas/apitest.schema.json"))
        let schema = try JSONParser.parse(data)
        func properties(_ path: String) throws -> Set<String> {
            let node = try #require(JSONPath(path).query(schema).first, "\(path) is missing from the schema")
            guard case .object(let object) = node else { throw CocoaError(.coderValueNotFound) }
            return Set(object.keys)
        }
        let checks: [(String, [String])] = [
            ("$.properties", SuiteParser.keys),
            ("$['$defs'].defaults.properties", SettingsParser.defaultsKeys),
            ("$['$defs'].test.properties", TestParser.keys),
            (
                "$['$defs'].step.anyOf[0].properties",
                StepParser.keys.filter { $0 != "include" && $0 != "steps" && $0 != "websocket" && $0 != "grpc" }
            ),
            ("$['$defs'].step.anyOf[1].properties", ["include"]),
            ("$['$defs'].step.anyOf[2].properties", StepParser.groupKeys),
            ("$['$defs'].step.anyOf[3].properties", WebSocketParser.stepKeys.map(\.rawValue)),
            ("$['$defs'].websocket.properties", WebSocketParser.Key.names + TransportSpec.keys),
            ("$['$defs'].step.anyOf[4].properties", GRPCParser.stepKeys.map(\.rawValue)),
            ("$['$defs'].grpc.properties", GRPCParser.Key.names + TransportSpec.keys),
            ("$['$defs'].grpcSchema.properties", GRPCParser.SettingKey.names),
            ("$['$defs'].security.properties", SecurityParser.keys),
            ("$['$defs'].response.properties", Self.responseKeys),
            ("$['$defs'].retry.properties", RetryParser.keys),
            ("$['$defs'].request.properties", RequestParser.keys),
            ("$['$defs'].request.properties.basicAuth.properties", RequestParser.basicAuthKeys),
            ("$['$defs'].multipartPart.properties", BodyParser.multipartPartKeys),
            ("$['$defs'].expect.properties", ExpectParser.keys),
            ("$['$defs'].captureSource.properties", CaptureParser.keys),
            ("$['$defs'].assertItem.properties", CaptureParser.keys + Predicate.names),
            ("$['$defs'].predicateMap.anyOf[1].properties", ["filters"] + Predicate.names),
            ("$['$defs'].filter.anyOf[1].properties", Filter.withArgument),
            ("$['$defs'].expect.properties.certificate.properties", CertificateField.allCases.map(\.rawValue)),
            ("$['$defs'].expect.properties.image.properties", ImageField.allCases.map(\.rawValue)),
            ("$['$defs'].auth.properties", AuthSpec.kinds),
            ("$['$defs'].stepLoop.properties", StepLoop.keys),
            ("$['$defs'].auth.properties.oauth2.properties", OAuth2Spec.keys),
            ("$['$defs'].auth.properties.awsSigV4.properties", AuthParser.awsSigV4Keys),
        ]
        for (path, keys) in checks {
            let inSchema = try properties(path)
            #expect(
                inSchema.subtracting(Self.schemaOnlyKeys) == Set(keys).subtracting(Self.schemaOnlyKeys), "\(path)")
        }
        let included = try JSONParser.parse(
            Data(contentsOf: Self.repository.appendingPathComponent("schemas/apitest-include.schema.json")))
        let settings = try #require(JSONPath("$.anyOf[0].properties").query(included).first)
        guard case .object(let settingsKeys) = settings else { throw CocoaError(.coderValueNotFound) }
        #expect(Set(settingsKeys.keys) == Set(IncludeParser.keys))
        let enums: [(String, [String])] = [
            ("$['$defs'].filter.anyOf[0].enum", Filter.plain.keys.sorted() + Filter.functions),
            ("$['$defs'].assertItem.properties.query.enum", Query.plainQueries.keys.sorted()),
            ("$['$defs'].request.properties.plistFormat.enum", PropertyListFormat.allCases.map(\.rawValue)),
            ("$['$defs'].assertItem.properties.type.anyOf[0].enum", ValueType.names + ["null"]),
            ("$['$defs'].response.properties.decoders.items.enum", ResponseDecoding.decoderNames),
            ("$['$defs'].auth.properties.oauth2.properties.flow.enum", OAuth2Spec.Flow.allCases.map(\.rawValue)),
            (
                "$['$defs'].auth.properties.oauth2.properties.clientAuth.enum",
                OAuth2Spec.ClientAuthentication.allCases.map(\.rawValue)
            ),
        ]
        for (path, names) in enums {
            let node = try #require(JSONPath(path).query(schema).first, "\(path) is missing from the schema")
            guard case .array(let items) = node else { throw CocoaError(.coderValueNotFound) }
            let strings = Set(items.map { item -> String in if case .string(let text) = item { text } else { "null" } })
            #expect(strings == Set(names), "\(path)")
        }
    }

    // MARK: - Every example loads

    @Test func everyYAMLExampleOfTheReferenceLoads() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The files the examples name; an example whose first line is `# shared/common.yaml` is that file.
        var fixtures = [
            "fixtures/avatar.png": "\u{89}PNG", "fixtures/blob": "blob", "fixtures/order.xml": "<order id=\"42\"/>",
            "data/users.csv": "name,role\ncarol,admin\n", "certs/staging-root.pem": "PEM",
            "certs/client.pem": "PEM", "certs/client-key.pem": "PEM",
            "shared/login.yaml": "- request: {method: POST, url: login}\n  capture: {token: {jsonpath: $.token}}\n",
            "schemas/users.schema.json": #"{"type": "object", "required": ["users"]}"#,
            "api/openapi.yaml": """
            openapi: 3.1.0
            info: {title: example, version: "1"}
            paths:
              /health:
                get: {responses: {"200": {description: up}}}
              /metrics:
                get: {operationId: getMetrics, responses: {"200": {description: metrics}}}
            """,
        ]
        let blocks = Self.reference.yamlBlocks
        for block in blocks where block.text.hasPrefix("# ") {
            let path = String(block.text.dropFirst(2).prefix { $0 != "\n" })
            if path.contains("/") { fixtures[path] = block.text }
        }
        #expect(fixtures["shared/common.yaml"] != nil, "the include example no longer names its file")
        for (path, text) in fixtures {
            let file = URL(fileURLWithPath: "\(directory)/\(path)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(blocks.count >= 15, "only \(blocks.count) YAML examples")
        let loader = SuiteLoader(
            environment: ["API_PASSWORD": "secret", "ADMIN_PASSWORD": "secret"], overrides: ["id": "42"])
        try Self.loadEach(blocks, of: "docs/suite-format.md", in: directory, with: loader)
    }

    /// Writes each of `blocks` (made a suite by ``suite(wrapping:)``) into `directory` and loads it with `loader`,
    /// recording an issue for each that is not a known fragment or does not load.
    static func loadEach(
        _ blocks: [Reference.Block], of document: String, in directory: String, with loader: SuiteLoader
    ) throws {
        for (index, block) in blocks.enumerated() {
            guard let suite = Self.suite(wrapping: block.text) else {
                Issue.record("\(document): the YAML example at line \(block.line) is neither a suite nor a fragment")
                continue
            }
            let file = "\(directory)/example-\(index).yaml"
            try suite.write(toFile: file, atomically: true, encoding: .utf8)
            do {
                _ = try loader.load(path: file)
            } catch {
                Issue.record(
                    "\(document): the YAML example at line \(block.line) does not load:\n\(error.oneLineSummary)\n\(suite)"
                )
            }
        }
    }

    /// A fragment made into a suite: a suite as it is (with a test added when it has none), a test's keys inside a
    /// test, a request's keys inside a request. `nil` for anything else.
    static func suite(wrapping text: String) -> String? {
        let keys = Set(
            text.split(separator: "\n").compactMap { line -> String? in
                guard let first = line.first, first != " ", first != "#", let colon = line.firstIndex(of: ":") else {
                    return nil
                }
                return String(line[..<colon])
            })
        guard !keys.isEmpty else { return nil }
        let base = "baseURL: https://api.example.com/\n"
        func indented(_ spaces: Int) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : String(repeating: " ", count: spaces) + $0
            }.joined(separator: "\n")
        }
        if keys.isSubset(of: SuiteParser.keys) {
            let withBase = keys.contains("baseURL") ? text : base + text
            return keys.contains("tests") ? withBase : withBase + "\ntests:\n  - {name: a test, request: {url: x}}\n"
        }
        if keys.isSubset(of: TestParser.keys) {
            let request = keys.contains("request") || keys.contains("steps") ? "" : "    request: {url: x}\n"
            return base + "tests:\n  - name: a test\n" + request + indented(4) + "\n"
        }
        if keys.isSubset(of: RequestParser.keys) {
            let url = keys.contains("url") ? "" : "      url: x\n"
            return base + "tests:\n  - name: a test\n    request:\n" + url + indented(6) + "\n"
        }
        return nil
    }
}

// MARK: - Reference

/// The Markdown reference, split into sections, code spans and YAML examples.
struct Reference {
    struct Block {
        var line: Int
        var text: String
    }

    let lines: [String]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The ```yaml blocks, with the line each starts on.
    var yamlBlocks: [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in lines.enumerated() {
            if var block = current {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    current = nil
                } else {
                    block.text += line + "\n"
                    current = block
                }
            } else if line == "```yaml" {
                current = Block(line: index + 2, text: "")
            }
        }
        return blocks
    }

    /// True when some YAML example has `key:` as a key.
    func hasExample(ofKey key: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: key)
        guard let pattern = try? NSRegularExpression(pattern: "(^|[\\s{,])\(escaped)\\s*:", options: .anchorsMatchLines)
        else { return false }
        return yamlBlocks.contains { block in
            pattern.firstMatch(in: block.text, range: NSRange(block.text.startIndex..., in: block.text)) != nil
        }
    }

    /// The words (`[A-Za-z_][A-Za-z0-9_-]*`) in the code spans and code blocks of the section under `heading`,
    /// up to the next heading (of any level: a section's subsections are not part of it); `nil` when there is no
    /// such heading.
    func codeWords(inSection heading: String) -> Set<String>? {
        guard let start = lines.firstIndex(of: heading) else { return nil }
        var code = ""
        var inBlock = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                code += line + "\n"
                continue
            }
            if line.hasPrefix("#") { break }
            let spans = line.split(separator: "`", omittingEmptySubsequences: false)
            for (index, span) in spans.enumerated() where index % 2 == 1 { code += span + "\n" }
        }
        var words: Set<String> = []
        var word = ""
        for character in code + " " {
            if character.isASCII
                && (character.isLetter || character == "_"
                    || (!word.isEmpty && (character.isNumber || character == "-")))
            {
                word.append(character)
            } else {
                if !word.isEmpty { words.insert(word) }
                word = ""
            }
        }
        return words
    }
}
