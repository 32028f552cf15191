import APITestJSON
import APITestJSONSchema
import Testing

/// Many schemas inside one set of documents compile over one registry: documents added once, shared subschemas
/// compiled once, an optional transform applied to each object schema as it compiles.
struct JSONSchemaBatchCompilerTests {
    /// An OpenAPI-like document: schemas under members that are not schema keywords, referring to each other.
    private let document: JSONValue = [
        "components": [
            "schemas": [
                "Pet": [
                    "type": "object", "required": ["id"],
                    "properties": [
                        "id": ["type": "integer"],
                        "tags": ["type": "array", "items": ["$ref": "#/components/schemas/Tag"]],
                    ],
                ],
                "Tag": ["type": "string", "minLength": 1],
                "Node": [
                    "type": "object", "properties": ["next": ["$ref": "#/components/schemas/Node"]],
                    "additionalProperties": false,
                ],
            ]
        ],
        "paths": [
            "/pets": ["get": ["schema": ["type": "array", "items": ["$ref": "#/components/schemas/Pet"]]]]
        ],
    ]
    private let uri = "file:///api/openapi.json"

    @Test func schemasInsideADocumentCompileAndValidate() throws {
        let batch = JSONSchemaBatchCompiler()
        try batch.addDocument(document, uri: uri)
        let list = try batch.compile(documentURI: uri, pointer: ["paths", "/pets", "get", "schema"])
        #expect(list.isValid([["id": 1, "tags": ["a"]]]))
        let errors = list.validate([["id": "1"], ["id": 2, "tags": [""]]]).errors
        #expect(errors.map(\.instancePath) == ["/0/id", "/1/tags/0"])
        #expect(
            errors.map(\.schemaPath) == [
                "/items/$ref/properties/id/type", "/items/$ref/properties/tags/items/$ref/minLength",
            ])
        #expect(list.baseURI == uri)
    }

    @Test func recursiveSchemasCompile() throws {
        let batch = JSONSchemaBatchCompiler()
        try batch.addDocument(document, uri: uri)
        let node = try batch.compile(documentURI: uri, pointer: ["components", "schemas", "Node"])
        #expect(node.isValid(["next": ["next": [:]]]))
        #expect(node.validate(["next": ["next": ["x": 1]]]).errors.map(\.instancePath) == ["/next/next/x"])
    }

    @Test func sharedSubschemasCompileOnce() throws {
        let calls = Counter()
        let batch = JSONSchemaBatchCompiler { object, documentURI, pointer throws(JSONSchemaError) in
            calls.record(pointer)
            return object
        }
        try batch.addDocument(document, uri: uri)
        _ = try batch.compile(documentURI: uri, pointer: ["paths", "/pets", "get", "schema"])
        _ = try batch.compile(documentURI: uri, pointer: ["components", "schemas", "Pet"])
        _ = try batch.compile(documentURI: uri, pointer: ["components", "schemas", "Tag"])
        // Each object schema was transformed (so compiled) exactly once, though three roots reach Pet and Tag.
        #expect(calls.counts.values.allSatisfy { $0 == 1 })
        #expect(calls.counts[["components", "schemas", "Pet"]] == 1)
        #expect(calls.counts[["components", "schemas", "Tag"]] == 1)
        #expect(calls.counts.count == 7)
    }

    @Test func theTransformRewritesSchemasAndCanRefuseThem() throws {
        // Turn every `"nullable": true` into a type that admits null, as an OpenAPI 3.0 translation does.
        let batch = JSONSchemaBatchCompiler { object, documentURI, pointer throws(JSONSchemaError) in
            var result = object
            if case .bool(true) = object["nullable"], case .string(let type) = object["type"] {
                result["type"] = [.string(type), "null"]
            }
            if object["refuse"] != nil {
                throw JSONSchemaError(
                    kind: .invalidSchema, documentURI: documentURI, schemaPath: "/refuse", reason: "refused")
            }
            return result
        }
        let value: JSONValue = ["a": ["type": "string", "nullable": true], "b": ["properties": ["x": ["refuse": 1]]]]
        try batch.addDocument(value, uri: uri)
        let a = try batch.compile(documentURI: uri, pointer: ["a"])
        #expect(a.isValid(.null))
        #expect(!a.isValid(1))
        let error = try #require(throws: JSONSchemaError.self) { try batch.compile(documentURI: uri, pointer: ["b"]) }
        #expect(error.reason == "refused")
    }

    @Test func embeddedIdentifiersAreFoundOnceIndexed() throws {
        let value: JSONValue = [
            "components": [
                "Pet": ["$id": "https://example.com/pet", "type": "object", "$defs": ["id": ["type": "integer"]]],
                "User": [
                    "properties": [
                        "pet": ["$ref": "https://example.com/pet"], "id": ["$ref": "https://example.com/pet#/$defs/id"],
                    ]
                ],
            ]
        ]
        let batch = JSONSchemaBatchCompiler()
        try batch.addDocument(value, uri: uri)
        // Not indexed: the root of a document that is not a schema does not reach `components`.
        #expect(throws: JSONSchemaError.self) { try batch.compile(documentURI: uri, pointer: ["components", "User"]) }
        let indexed = JSONSchemaBatchCompiler()
        try indexed.addDocument(value, uri: uri)
        indexed.indexEmbeddedSchema(documentURI: uri, pointer: ["components", "Pet"])
        let user = try indexed.compile(documentURI: uri, pointer: ["components", "User"])
        #expect(user.isValid(["pet": [:], "id": 1]))
        #expect(!user.isValid(["pet": 1]))
        #expect(!user.isValid(["id": "1"]))
    }

    @Test func otherDocumentsComeFromTheResolver() throws {
        struct Files: JSONSchemaResolver {
            func resolve(_ uri: String) throws -> JSONValue? {
                uri == "file:///api/pet.json" ? ["Pet": ["type": "object", "required": ["name"]]] : nil
            }
        }
        let batch = JSONSchemaBatchCompiler(resolver: Files())
        try batch.addDocument(["s": ["$ref": "pet.json#/Pet"], "t": ["$ref": "gone.json"]], uri: uri)
        let schema = try batch.compile(documentURI: uri, pointer: ["s"])
        #expect(schema.isValid(["name": "x"]))
        #expect(!schema.isValid([:]))
        let error = try #require(throws: JSONSchemaError.self) { try batch.compile(documentURI: uri, pointer: ["t"]) }
        #expect(error.kind == .unresolvableReference)
        #expect(error.schemaPath == "/t/$ref")
        #expect(error.reference == "gone.json")
    }
}

extension JSONSchemaBatchCompilerTests {
    @Test func longChainsOfReferencesCostNoStack() throws {
        // 3,000 components each referring to the next: compiled from a work list, not 3,000 nested calls.
        var schemas: [JSONObject.Member] = []
        for index in 0..<3000 {
            let next: JSONValue = index == 2999 ? ["type": "integer"] : ["$ref": .string("#/s/\(index + 1)")]
            schemas.append((String(index), ["properties": ["next": next]]))
        }
        let batch = JSONSchemaBatchCompiler()
        try batch.addDocument(["s": .object(JSONObject(schemas))], uri: uri)
        let first = try batch.compile(documentURI: uri, pointer: ["s", "0"])
        #expect(first.isValid(["next": ["next": ["next": [:]]]]))
        #expect(first.validate(["next": ["next": 1]]).errors.map(\.instancePath).isEmpty)
    }

    @Test func referenceTargetsLeftByAnErrorCompileInTheNextCall() throws {
        let batch = JSONSchemaBatchCompiler()
        let value: JSONValue = [
            "a": ["properties": ["x": ["$ref": "#/b"], "y": ["minLength": "1"]]],
            "b": ["properties": ["z": ["type": 7]]],
            "c": ["type": "string"],
        ]
        try batch.addDocument(value, uri: uri)
        let first = try #require(throws: JSONSchemaError.self) { try batch.compile(documentURI: uri, pointer: ["a"]) }
        #expect(first.schemaPath == "/a/properties/y/minLength")
        // `#/b` was left pending by the error: its own error is reported by the next compilation.
        let second = try #require(throws: JSONSchemaError.self) { try batch.compile(documentURI: uri, pointer: ["c"]) }
        #expect(second.schemaPath == "/b/properties/z/type")
        #expect(try batch.compile(documentURI: uri, pointer: ["c"]).isValid("x"))
    }

    @Test func requiredCanExemptReadOnlyAndWriteOnlyProperties() throws {
        let schema = try JSONSchema([
            "type": "object", "required": ["id", "name", "password"],
            "properties": [
                "id": ["type": "integer", "readOnly": true], "name": ["type": "string"],
                "password": ["type": "string", "writeOnly": true],
            ],
        ])
        // Plain validation requires every listed property, as always.
        #expect(
            schema.validate(["name": "a"]).errors.map(\.message) == [
                #"missing required property "id""#, #"missing required property "password""#,
            ])
        let request = schema.exemptingRequired(annotatedWith: ["readOnly"])
        #expect(request.validate(["name": "a"]).errors.map(\.message) == [#"missing required property "password""#])
        #expect(request.isValid(["name": "a", "password": "p"]))
        let response = schema.exemptingRequired(annotatedWith: ["writeOnly"])
        #expect(response.validate(["name": "a"]).errors.map(\.message) == [#"missing required property "id""#])
        #expect(response.requiredExemptions == ["writeOnly"])
        // A missing non-annotated property still fails, and a present property is checked as usual.
        #expect(response.validate(["id": "1"]).errors.map(\.keyword) == ["required", "type"])
    }
}

/// Counts calls per pointer (the transform is not `Sendable`-constrained, but the counter is shared by reference).
private final class Counter {
    var counts: [[String]: Int] = [:]

    func record(_ pointer: [String]) {
        counts[pointer, default: 0] += 1
    }
}
