import APITestContractTesting
import APITestJSON
import APITestJSONSchema
import APITestOpenAPI
import Testing

/// Every value the generator says a schema accepts, the project's JSON Schema validator accepts; every value it
/// says breaks a keyword, the validator refuses for that keyword.
@Suite struct ValueGeneratorTests {
    static let schemas = [
        #"{"type": "integer", "minimum": 3, "maximum": 17}"#,
        #"{"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 2}"#,
        #"{"type": "number", "minimum": -2.5, "maximum": 99}"#,
        #"{"type": "string", "minLength": 2, "maxLength": 5}"#,
        #"{"type": "string", "enum": ["cat", "dog", "fish"]}"#,
        #"{"type": ["string", "null"], "maxLength": 3}"#,
        #"{"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true, "items": {"type": "integer", "maximum": 5}}"#,
        #"""
        {"type": "object", "required": ["name", "age"], "additionalProperties": false, "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 20},
          "age": {"type": "integer", "minimum": 0, "maximum": 150},
          "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
          "address": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}}}
        """#,
        #"{"allOf": [{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer", "minimum": 1}}}, {"properties": {"note": {"type": "string", "maxLength": 4}}}]}"#,
        ##"{"$ref": "#/components/schemas/Node"}"##,
        #"{"type": "string", "format": "date"}"#,
    ]

    /// The body schema of each operation, and its compiled form.
    func fixtures() throws -> [(schema: DescribedSchema, compiled: JSONSchema, generator: ValueGenerator)] {
        let text = TestDocument.bodies(Self.schemas)
        let description = try TestDocument.load(text)
        let document = try JSONParser.parse(text)
        let generator = ValueGenerator(description: description)
        return try description.operations.enumerated().map { index, operation in
            let schema = try #require(operation.requestBody?.content.first?.schema)
            guard case .object(var root) = document else { throw Unexpected() }
            // The schema compiled with the document's components beside it, so that its $refs resolve.
            guard case .object(let own) = JSONValue.object(try #require(schema.value.objectValue)) else {
                throw Unexpected()
            }
            root = own
            if case .object(let whole) = document { root["components"] = whole["components"] }
            return (schema, try JSONSchema(.object(root)), generator)
        }
    }

    struct Unexpected: Error {}

    @Test func randomValidValuesValidate() throws {
        for (index, fixture) in try fixtures().enumerated() {
            var random = FuzzRandom.stream(seed: 99, UInt64(index))
            for _ in 0..<200 {
                let value = fixture.generator.valid(fixture.schema, &random)
                let result = fixture.compiled.validate(value)
                #expect(result.isValid, "schema \(index): \(JSONWriter.string(value)): \(result.errors)")
            }
            let minimal = fixture.generator.minimal(fixture.schema)
            #expect(
                fixture.compiled.validate(minimal).isValid, "schema \(index) minimal: \(JSONWriter.string(minimal))")
        }
    }

    @Test func boundaryValuesAreValidOrFailForTheirKeyword() throws {
        var invalidCount = 0
        for (index, fixture) in try fixtures().enumerated() {
            for boundary in fixture.generator.boundaries(fixture.schema) {
                let result = fixture.compiled.validate(boundary.value)
                let shown = "schema \(index): \(boundary.keyword) \(JSONWriter.string(boundary.value))"
                switch boundary.isValid {
                case true:
                    #expect(result.isValid, "\(shown) should be valid: \(result.errors)")
                case false:
                    invalidCount += 1
                    #expect(!result.isValid, "\(shown) should be invalid")
                    let keywords = Set(result.errors.map(\.keyword))
                    let expected = boundary.keyword == "nullable" ? "type" : boundary.keyword
                    #expect(
                        keywords.contains(expected)
                            || (expected == "additionalProperties" && keywords.contains("false")),
                        "\(shown) fails \(keywords), not \(expected)")
                default:
                    // A format is an annotation: the validator does not judge it.
                    #expect(boundary.keyword == "format")
                }
            }
        }
        #expect(invalidCount > 30)
    }

    @Test func randomInvalidValuesFailForTheirKeyword() throws {
        for (index, fixture) in try fixtures().enumerated() {
            var random = FuzzRandom.stream(seed: 5, UInt64(index))
            for _ in 0..<100 {
                guard let broken = fixture.generator.invalid(fixture.schema, &random) else { continue }
                let result = fixture.compiled.validate(broken.value)
                #expect(!result.isValid, "schema \(index): \(broken.keyword) \(JSONWriter.string(broken.value))")
                let keywords = Set(result.errors.map(\.keyword))
                #expect(
                    keywords.contains(broken.keyword)
                        || broken.keyword == "additionalProperties" && keywords.contains("false"),
                    "schema \(index): \(JSONWriter.string(broken.value)) fails \(keywords), not \(broken.keyword)")
            }
        }
    }

    @Test func theSameSeedMakesTheSameValues() throws {
        let fixture = try fixtures()[7]
        var first = FuzzRandom(seed: 3)
        var second = FuzzRandom(seed: 3)
        let a = (0..<20).map { _ in fixture.generator.valid(fixture.schema, &first) }
        let b = (0..<20).map { _ in fixture.generator.valid(fixture.schema, &second) }
        #expect(a == b)
    }

    @Test func aRecursiveSchemaStaysBounded() throws {
        let fixture = try fixtures()[9]
        var random = FuzzRandom(seed: 1)
        for _ in 0..<50 {
            let value = fixture.generator.valid(fixture.schema, &random)
            #expect(JSONWriter.string(value).count < 100_000)
            #expect(Self.depth(value) <= ValueGenerator.maximumDepth * 2 + 4)
        }
    }

    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): 1 + (items.map(depth).max() ?? 0)
        case .object(let object): 1 + (object.map { depth($0.value) }.max() ?? 0)
        default: 0
        }
    }
}
