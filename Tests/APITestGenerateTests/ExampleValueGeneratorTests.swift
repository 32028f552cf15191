import APITestJSON
import APITestOpenAPI
import Testing

@testable import APITestGenerate

/// Values built for schemas: each type and format, bounds, required-only objects, `allOf`/`oneOf`/`anyOf`,
/// `readOnly`, `enum`/`const`, and the document's examples before anything generated.
struct ExampleValueGeneratorTests {
    /// The value generated for the body schema `schema` (JSON text) of a 3.1 (or `version`) document.
    func generated(_ schema: String, components: String = "{}", version: String = "3.1.0") throws -> JSONValue {
        let (description, body) = try GenerationFixtures.bodySchema(schema, components: components, version: version)
        return try ExampleValueGenerator(description: description).value(for: body)
    }

    /// Why nothing can be generated for `schema`.
    func failure(_ schema: String, components: String = "{}", version: String = "3.1.0") throws -> String? {
        let (description, body) = try GenerationFixtures.bodySchema(schema, components: components, version: version)
        do {
            _ = try ExampleValueGenerator(description: description).value(for: body)
            return nil
        } catch {
            return error.reason
        }
    }

    // MARK: - Scalars

    @Test(arguments: [
        (#"{"type": "string"}"#, JSONValue.string("string")),
        (#"{"type": "string", "minLength": 9}"#, "stringsss"),
        (#"{"type": "string", "maxLength": 3}"#, "str"),
        (#"{"type": "string", "maxLength": 0}"#, ""),
        (#"{"type": "integer"}"#, 1),
        (#"{"type": "integer", "minimum": 5}"#, 5),
        (#"{"type": "integer", "maximum": -3}"#, -3),
        (#"{"type": "integer", "exclusiveMinimum": 1}"#, 2),
        (#"{"type": "integer", "minimum": 7, "multipleOf": 5}"#, 10),
        (#"{"type": "integer", "minimum": 1, "maximum": 4, "multipleOf": 3}"#, 3),
        (#"{"type": "number"}"#, 1),
        (#"{"type": "number", "minimum": 1.5}"#, 1.5),
        (#"{"type": "number", "exclusiveMinimum": 2, "exclusiveMaximum": 3}"#, 2.5),
        (#"{"type": "number", "minimum": 0.25, "multipleOf": 0.1}"#, 0.3),
        (#"{"type": "boolean"}"#, true),
        (#"{"type": "null"}"#, nil),
        (#"{"type": ["null", "integer"]}"#, 1),
        (#"{}"#, "string"),
        (#"true"#, "string"),
    ])
    func scalarValues(_ schema: String, _ expected: JSONValue) throws {
        #expect(try generated(schema) == expected)
    }

    @Test(arguments: [
        ("uuid", "00000000-0000-4000-8000-000000000000"), ("date", "2025-01-01"),
        ("date-time", "2025-01-01T00:00:00Z"), ("email", "user@example.com"), ("uri", "https://example.com/"),
        ("ipv4", "192.0.2.1"), ("byte", "c3RyaW5n"), ("int64", "1"),
    ])
    func stringFormats(_ format: String, _ expected: String) throws {
        #expect(try generated(#"{"type": "string", "format": "\#(format)"}"#) == .string(expected))
    }

    @Test func openAPI30BoundsAndNullable() throws {
        #expect(try generated(#"{"type": "integer", "minimum": 1, "exclusiveMinimum": true}"#, version: "3.0.3") == 2)
        #expect(
            try generated(#"{"type": "integer", "maximum": 0, "exclusiveMaximum": true}"#, version: "3.0.3") == -1)
        #expect(try generated(#"{"type": "string", "nullable": true}"#, version: "3.0.3") == "string")
    }

    @Test func simplePatternsAreMatched() throws {
        #expect(try generated(#"{"type": "string", "pattern": "^[A-Z]{2}-\\d{4}$"}"#) == "AA-0000")
        #expect(try generated(#"{"type": "string", "pattern": "^[a-z]+$", "minLength": 3}"#) == "aaa")
        // A pattern no linear-time engine runs (a look-ahead) is refused when the document loads, at its place.
        let refusal = #expect(throws: (any Error).self) {
            try failure(#"{"type": "string", "pattern": "^(?=a)b$"}"#)
        }
        #expect("\(refusal.map { "\($0)" } ?? "")".contains("look-ahead"), "\(String(describing: refusal))")
    }

    @Test func impossibleSchemasSayWhy() throws {
        #expect(try failure("false") == "the schema accepts no value")
        #expect(try failure(#"{"type": "integer", "minimum": 5, "maximum": 4}"#)?.contains("bounds") == true)
        #expect(try failure(#"{"allOf": [{"type": "string"}, {"type": "integer"}]}"#)?.contains("nothing") == true)
        #expect(try failure(#"{"const": 1, "allOf": [{"const": 2}]}"#) == "the schema's const values differ")
        let cycle =
            ##"{"Node": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}"##
        #expect(try failure(##"{"$ref": "#/components/schemas/Node"}"##, components: cycle)?.contains("deeper") == true)
    }

    @Test func nestedChoicesThatAllFailStopAtTheBudget() throws {
        // Six levels of eight branches each, every path ending in `false`: 8^6 paths, never all tried.
        var components: [String] = []
        for level in 0..<6 {
            let branch = ##"{"$ref": "#/components/schemas/L\##(level + 1)"}"##
            components.append(
                ##""L\##(level)": {"oneOf": [\##(Array(repeating: branch, count: 8).joined(separator: ", "))]}"##)
        }
        components.append(##""L6": false"##)
        let reason = try failure(
            ##"{"$ref": "#/components/schemas/L0"}"##, components: "{" + components.joined(separator: ", ") + "}")
        #expect(reason?.contains("steps") == true, "\(reason ?? "built")")
    }

    // MARK: - enum, const and examples

    @Test func enumAndConstComeFirst() throws {
        #expect(try generated(#"{"type": "string", "enum": ["b", "a"]}"#) == "b")
        #expect(try generated(#"{"type": ["string", "null"], "enum": [null, "x"]}"#) == "x")
        #expect(try generated(#"{"type": "string", "const": "fixed"}"#) == "fixed")
        #expect(try generated(#"{"enum": [1, 2], "allOf": [{"enum": [2, 3]}]}"#) == 2)
    }

    @Test func theDocumentsValuesArePreferred() throws {
        #expect(try generated(#"{"type": "integer", "example": 42}"#, version: "3.0.3") == 42)
        #expect(try generated(#"{"type": "integer", "examples": [7, 8]}"#) == 7)
        #expect(try generated(#"{"type": "string", "default": "dflt"}"#) == "dflt")
        let (description, body) = try GenerationFixtures.bodySchema(
            #"{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "example": 9}}, "example": {"n": 3, "extra": true}}"#
        )
        let candidates = ExampleValueGenerator(description: description).candidates(for: body)
        #expect(
            candidates.values == [
                ExampleCandidate(value: ["n": 3, "extra": true], isFromDocument: true),
                ExampleCandidate(value: ["n": 9], isFromDocument: false),
                ExampleCandidate(value: ["n": 1], isFromDocument: false),
            ])
    }

    // MARK: - Objects and arrays

    @Test func objectsHaveTheirRequiredPropertiesOnly() throws {
        let schema = #"""
            {"type": "object", "required": ["name", "id", "owner"],
             "properties": {"id": {"type": "integer", "readOnly": true}, "name": {"type": "string"},
               "tag": {"type": "string"},
               "owner": {"type": "object", "required": ["email"],
                 "properties": {"email": {"type": "string", "format": "email"}, "age": {"type": "integer"}}}}}
            """#
        #expect(try generated(schema) == ["name": "string", "owner": ["email": "user@example.com"]])
        #expect(try generated(#"{"type": "object", "properties": {"a": {"type": "string"}}}"#) == [:])
        #expect(
            try generated(#"{"type": "object", "minProperties": 1, "properties": {"a": {"type": "boolean"}}}"#)
                == ["a": true])
        #expect(
            try generated(#"{"type": "object", "required": ["x"], "additionalProperties": {"type": "integer"}}"#)
                == ["x": 1])
        #expect(
            try failure(#"{"type": "object", "required": ["x"], "additionalProperties": false}"#)?.contains(
                "not allowed")
                == true)
    }

    @Test func allOfMergesAndReferencesAreFollowed() throws {
        let components = #"""
            {"NewPet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "tag": {"type": "string"}}},
             "Pet": {"allOf": [{"$ref": "#/components/schemas/NewPet"},
               {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "format": "int64"}}}]}}
            """#
        #expect(
            try generated(##"{"$ref": "#/components/schemas/Pet"}"##, components: components, version: "3.0.0")
                == ["name": "string", "id": 1])
        // 3.1: a $ref's siblings apply too; 3.0: they are ignored.
        let withSibling = ##"{"$ref": "#/components/schemas/NewPet", "required": ["tag"]}"##
        #expect(try generated(withSibling, components: components) == ["name": "string", "tag": "string"])
        #expect(try generated(withSibling, components: components, version: "3.0.3") == ["name": "string"])
    }

    @Test func oneOfAndAnyOfTakeTheFirstBranchThatWorks() throws {
        #expect(try generated(#"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"#) == 1)
        #expect(try generated(#"{"anyOf": [false, {"type": "string", "format": "date"}]}"#) == "2025-01-01")
        #expect(
            try generated(
                #"{"type": "object", "required": ["kind"], "oneOf": [{"properties": {"kind": {"const": "cat"}}}]}"#)
                == ["kind": "cat"])
    }

    @Test func arraysHaveAtLeastOneElement() throws {
        #expect(try generated(#"{"type": "array", "items": {"type": "integer"}}"#) == [1])
        #expect(
            try generated(#"{"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": true}"#)
                == ["string", "string2"])
        #expect(try generated(#"{"type": "array", "maxItems": 0}"#) == [])
        #expect(try generated(#"{"type": "array", "items": false}"#) == [])
        #expect(
            try generated(
                #"{"type": "array", "prefixItems": [{"type": "boolean"}, {"type": "string"}], "minItems": 2}"#)
                == [true, "string"])
    }
}
