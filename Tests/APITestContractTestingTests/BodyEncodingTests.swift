import APITestContractTesting
import APITestJSON
import Testing

/// Operations that declare only `multipart/form-data` or only XML request bodies get bodies (the old generator sent
/// none: it made JSON and form bodies only, so such operations got requests without a body): a multipart body a
/// part per member, with the binary member as a file, and the documented XML example as written; XML made from
/// generated values is sent but not judged.
@Suite struct BodyEncodingTests {
    static let document = """
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
         "components": {"schemas": {"Pet": {"type": "object", "required": ["name"], "xml": {"name": "pet"},
           "properties": {"name": {"type": "string", "maxLength": 10}, "age": {"type": "integer", "minimum": 0},
             "tags": {"type": "array", "items": {"type": "string"}}}}}},
         "paths": {
           "/uploads": {"post": {"operationId": "upload",
             "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {
               "type": "object", "required": ["title", "file"], "properties": {
                 "title": {"type": "string", "minLength": 1, "maxLength": 20},
                 "count": {"type": "integer", "minimum": 1, "maximum": 5},
                 "file": {"type": "string", "format": "binary"}}}}}},
             "responses": {"201": {"description": "stored"}, "422": {"description": "invalid"}}}},
           "/pets": {"post": {"operationId": "addPet",
             "requestBody": {"required": true, "content": {"application/xml": {
               "schema": {"$ref": "#/components/schemas/Pet"},
               "example": "<pet><name>Rex</name><age>3</age></pet>"}}},
             "responses": {"201": {"description": "stored"}, "400": {"description": "invalid"}}}}}}
        """

    func engine() throws -> FuzzEngine {
        var configuration = FuzzConfiguration(baseURL: "http://127.0.0.1:9")
        configuration.seed = 4
        configuration.maxExamples = 20
        configuration.dryRun = true
        return try TestDocument.document(Self.document).engine(configuration)
    }

    @Test func aMultipartOnlyOperationGetsAPartPerMemberAndItsFileAsAFile() throws {
        let engine = try engine()
        let cases = engine.generatedCases().filter { $0.operation == 0 && $0.purpose == .data }
        #expect(!cases.isEmpty)
        var valid = 0
        for fuzzCase in cases where fuzzCase.body != nil {
            let request = engine.request(for: fuzzCase)
            let contentType = request.headers.first { $0.name == "Content-Type" }?.value ?? ""
            #expect(contentType.hasPrefix("multipart/form-data; boundary="), "\(contentType)")
            let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
            let text = String(decoding: request.body, as: UTF8.self)
            #expect(text.hasSuffix("--\(boundary)--\r\n"), "\(text)")
            if case .object(let object) = fuzzCase.body?.value, object["file"] != nil {
                #expect(text.contains("name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream"))
            }
            if case .object(let object) = fuzzCase.body?.value, case .string(let title) = object["title"] {
                #expect(text.contains("Content-Disposition: form-data; name=\"title\"\r\n\r\n\(title)\r\n"), "\(text)")
            }
            if engine.judge(fuzzCase, request) == .valid { valid += 1 }
        }
        #expect(valid > 0)
        // A required member left out is a case, judged by the generator as for a form.
        #expect(
            cases.contains { fuzzCase in
                guard case .invalid("required", _) = fuzzCase.intent else { return false }
                return engine.judge(fuzzCase, engine.request(for: fuzzCase)) != .unknown
            })
    }

    @Test func anXMLOnlyOperationSendsItsExampleAsWrittenAndGeneratedXMLUnjudged() throws {
        let engine = try engine()
        let cases = engine.generatedCases().filter { $0.operation == 1 && $0.purpose == .data }
        let example = try #require(cases.first { $0.phase == .examples })
        let request = engine.request(for: example)
        #expect(String(decoding: request.body, as: UTF8.self) == "<pet><name>Rex</name><age>3</age></pet>")
        #expect(request.headers.contains { $0.name == "Content-Type" && $0.value == "application/xml" })
        #expect(engine.judge(example, request) == .valid)

        let generated = cases.filter { $0.phase == .fuzzing }
        #expect(!generated.isEmpty)
        for fuzzCase in generated {
            let built = engine.request(for: fuzzCase)
            let text = String(decoding: built.body, as: UTF8.self)
            #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?><pet"), "\(text)")
            #expect(engine.judge(fuzzCase, built) == .unknown)
        }
    }

    /// A part's name is quoted by the one rule of the HTTP layer's `MultipartFormData` (WHATWG: `"` as `%22`, CR
    /// as `%0D`, LF as `%0A`), not by a copy of it.
    @Test func aPartNameWithAQuoteAndALineBreakIsQuotedAsTheHTTPLayerQuotesIt() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
             "paths": {"/uploads": {"post": {"operationId": "upload",
               "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {
                 "type": "object", "required": ["say \\"hi\\"\\r\\nnow"], "properties": {
                   "say \\"hi\\"\\r\\nnow": {"type": "string", "minLength": 1, "maxLength": 5}}}}}},
               "responses": {"201": {"description": "stored"}}}}}}
            """
        var configuration = FuzzConfiguration(baseURL: "http://127.0.0.1:9")
        configuration.seed = 4
        configuration.maxExamples = 5
        configuration.dryRun = true
        let engine = try TestDocument.document(document).engine(configuration)
        let bodies = engine.generatedCases().filter { $0.purpose == .data && $0.body != nil }.map {
            String(decoding: engine.request(for: $0).body, as: UTF8.self)
        }
        #expect(bodies.contains { $0.contains("Content-Disposition: form-data; name=\"say %22hi%22%0D%0Anow\"\r\n") })
        #expect(!bodies.contains { $0.contains("say \"hi") })
    }
}
