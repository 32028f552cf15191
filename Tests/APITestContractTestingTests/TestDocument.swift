import APITestContractTesting
import APITestJSON
import APITestOpenAPI
import APITestSupport

/// A document given as JSON text, read by the tests' own reader.
struct TestDocument {
    /// Reads the one file of a document from memory.
    struct Reader: OpenAPIFileReader {
        let files: [String: JSONValue]

        func read(_ absolutePath: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
            let value = files[absolutePath] ?? .null
            return OpenAPISourceFile(value: value) { _ in SourceLocation(file: absolutePath, line: 1, column: 1) }
        }
    }

    /// The path the document is read from.
    static let path = "/fuzz-tests/openapi.json"

    /// The description of `text` (JSON).
    static func load(_ text: String) throws -> OpenAPIDescription {
        let value = try JSONParser.parse(text)
        return try OpenAPIDescription.load(path: path, reader: Reader(files: [path: value]))
    }

    /// The document and engine of `text` for a run against `baseURL`.
    static func document(_ text: String) throws -> FuzzDocument {
        let value = try JSONParser.parse(text)
        let reader = Reader(files: [path: value])
        let description = try OpenAPIDescription.load(path: path, reader: reader)
        return try FuzzDocument.load(description: description, reader: reader)
    }

    /// A 3.1 document with one `POST /s{n}` per schema, each the JSON body of its operation.
    static func bodies(_ schemas: [String], version: String = "3.1.0") -> String {
        let paths = schemas.enumerated().map { index, schema in
            """
            "/s\(index)": {"post": {"operationId": "s\(index)", "requestBody": {"required": true, "content": {
              "application/json": {"schema": \(schema)}}}, "responses": {"200": {"description": "ok"}}}}
            """
        }
        return """
            {"openapi": "\(version)", "info": {"title": "t", "version": "1"},
             "paths": {\(paths.joined(separator: ",\n"))},
             "components": {"schemas": {
               "Node": {"type": "object", "required": ["name"], "properties": {
                 "name": {"type": "string", "minLength": 1},
                 "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}}}
            """
    }
}
