import APITestJSON
import Testing

@testable import APITestYAML

/// A composed YAML document as JSON (what an OpenAPI document and its `$ref`ed files are read as) and JSON pointers
/// located back in the YAML.
@Suite("YAML documents as JSON")
struct YAMLDocumentJSONTests {
    static func compose(_ text: String) throws -> (YAMLDocument, YAMLNode) {
        let composed = try YAMLComposer.compose(text)
        return (composed.document, try #require(composed.root))
    }

    @Test("scalars are typed by the YAML 1.2 core schema, keys are text, order and aliases are kept")
    func values() throws {
        let (document, root) = try Self.compose(
            """
            openapi: 3.1.0
            paths:
              /pets:
                get:
                  responses:
                    200: {description: ok}
                    '404': &missing {description: "not found"}
                    default: *missing
            numbers: [1, -2.5, 1e3, 0x1F, 12345678901234567890, .inf]
            flags: [true, false, yes, ~, null, '']
            """)
        let value = try document.jsonValue(of: root)
        let expected: JSONValue = [
            "openapi": "3.1.0",
            "paths": [
                "/pets": [
                    "get": [
                        "responses": [
                            "200": ["description": "ok"],
                            "404": ["description": "not found"],
                            "default": ["description": "not found"],
                        ]
                    ]
                ]
            ],
            "numbers": [
                .integer(1), .double(-2.5), .double(1000), .integer(31),
                .number(try #require(JSONNumber(text: "12345678901234567890"))), .double(.infinity),
            ],
            "flags": [true, false, "yes", .null, .null, ""],
        ]
        #expect(value == expected)
        // `openapi: 3.1.0` stays text (not a number), and the response keys keep their order.
        guard case .object(let object) = value, case .object(let paths) = object["paths"],
            case .object(let pets) = paths["/pets"], case .object(let get) = pets["get"],
            case .object(let responses) = get["responses"]
        else {
            Issue.record("not the expected shape: \(value)")
            return
        }
        #expect(responses.keys == ["200", "404", "default"])
    }

    @Test("a JSON document reads as the YAML it also is")
    func json() throws {
        let (document, root) = try Self.compose(#"{"a": [1, {"b": null}], "c": "d\u00e9"}"#)
        #expect(try document.jsonValue(of: root) == ["a": [.integer(1), ["b": .null]], "c": "dé"])
    }

    @Test("a JSON pointer finds where its value is declared (a member's key), or the deepest node on its way")
    func pointers() throws {
        let text = """
            paths:
              /pets/{id}:
                get:
                  parameters:
                    - name: id
                      in: path
            """
        let (document, root) = try Self.compose(text)
        func mark(_ tokens: [String]) -> String {
            let mark = document.mark(of: document.node(at: tokens, from: root))
            return "\(mark.line):\(mark.column)"
        }
        #expect(mark([]) == "1:1")
        #expect(mark(["paths", "/pets/{id}", "get"]) == "3:5")
        #expect(mark(["paths", "/pets/{id}", "get", "parameters", "0", "in"]) == "6:11")
        // Past the end of a list, an unknown key, into a scalar: the last node reached.
        #expect(mark(["paths", "/pets/{id}", "get", "parameters", "3"]) == "5:9")
        #expect(mark(["paths", "/nope"]) == "2:3")
        #expect(mark(["paths", "/pets/{id}", "get", "parameters", "0", "name", "x"]) == "5:17")
        #expect(mark(["paths", "/pets/{id}", "get", "parameters", "0"]) == "5:11")
    }

    @Test("the locator finds in large maps (through an index) what the scan finds")
    func locatorMatchesTheScan() throws {
        var text = "paths:\n"
        for index in 0..<200 { text += "  /p\(index): {get: {operationId: op\(index)}}\n" }
        let (document, root) = try Self.compose(text)
        let locator = YAMLPointerLocator(document: document, root: root)
        for tokens in [["paths", "/p0"], ["paths", "/p199", "get", "operationId"], ["paths", "/nope"], ["x"]] {
            #expect(locator.node(at: tokens) == document.node(at: tokens, from: root), "\(tokens)")
        }
        #expect(document.mark(of: locator.node(at: ["paths", "/p150", "get"])).line == 152)
    }

    @Test("aliases of aliases that would expand to millions of values fail instead of filling the memory")
    func billionLaughs() throws {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<9 {
            let items = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(items)]\n"
        }
        let (document, root) = try Self.compose(text)
        #expect(throws: YAMLDocument.JSONConversionProblem.self) { try document.jsonValue(of: root) }
    }

    @Test("a map key that is a collection is refused")
    func complexKey() throws {
        let (document, root) = try Self.compose("? [a, b]\n: c\n")
        #expect(throws: YAMLDocument.JSONConversionProblem.self) { try document.jsonValue(of: root) }
    }
}
