import APITestJSONSchema
import APITestSupport

// MARK: - The sentence for people

extension OpenAPILoadProblem: CustomStringConvertible {
    /// A sentence for people, e.g. `$ref "https://example.com/pet.yaml" not followed: apitest never fetches`. The one
    /// place a load problem becomes text: the values it quotes come from the document (a schema's `type`, a `$ref`,
    /// an operationId, a response key), which may hold any character, so controls and invisible characters are
    /// written as escapes (``Swift/String/shownInMessage``) and never reach a terminal raw.
    package var message: String { words.shownInMessage }

    /// The sentence before its quoted values are escaped for the display.
    private var words: String {
        switch kind {
        case .notOpenAPI3(let swagger):
            if let swagger {
                return "this is a Swagger \(swagger) document; apitest checks OpenAPI 3.0 and 3.1 documents"
            }
            return "not an OpenAPI document: it has no openapi version (3.0.x or 3.1.x)"
        case .unsupportedVersion(let version):
            return "openapi \(version) is not supported: apitest checks OpenAPI 3.0.x and 3.1.x documents"
        case .readFailed(let path, let error):
            switch error.kind {
            case .missing: return "cannot read \(path): no such file"
            case .unreadable: return "cannot read \(path): \(error.message)"
            case .syntax: return "\(path) is not valid YAML or JSON: \(error.message)"
            }
        case .referencedFileMissing(let reference, let path):
            return "$ref \"\(reference)\" names \(path), which does not exist"
        case .unresolvableReference(let reference):
            return "$ref \"\(reference)\" cannot be resolved: nothing is at that place"
        case .externalReference(let reference):
            return "$ref \"\(reference)\" not followed: apitest never fetches (only relative file references are read)"
        case .referenceCycle(let chain):
            return "$ref cycle: \(chain.map { "\"\($0)\"" }.joined(separator: " -> ")) leads back to where it started"
        case .invalidSchema(let reason):
            return "schema does not compile: \(reason)"
        case .keywordNotInOpenAPI30(let keyword):
            return
                "'\(keyword)' is not a keyword of OpenAPI 3.0's Schema Object: it is checked as JSON Schema 2020-12 "
                + "(OpenAPI 3.1) defines it; declare openapi: 3.1.0 to use 2020-12 keywords as such"
        case .booleanExclusiveBound(let keyword, let value, let bound):
            let form = "\(keyword): \(value) is OpenAPI 3.0's form (3.1's is a number)"
            if let bound { return "\(form): read as 3.1's \(keyword) with the value of \(bound) beside it" }
            if value { return "\(form) and has no \(Self.sibling(of: keyword)) beside it: ignored" }
            return "\(form): ignored, \(Self.sibling(of: keyword)) stays inclusive"
        case .nullableInOpenAPI31(let value, let addedTo):
            let intro =
                "\(value ? "nullable" : "nullable: false") is OpenAPI 3.0's keyword, not 3.1's (3.1 writes "
                + "type: [..., \"null\"])"
            if !value { return "\(intro): ignored" }
            if let addedTo { return "\(intro): read as \"null\" added to \(addedTo)" }
            return "\(intro): ignored, as 3.0 ignores it without a type beside it"
        case .unknownFormat(let format):
            return
                "format \"\(format)\" is not one JSON Schema 2020-12 or the OpenAPI Format Registry defines: ignored "
                + "(a format is an annotation; reported once, at its first use)"
        case .exampleMisuse(let misuse):
            return Self.words(misuse)
        case .operationReference:
            return "an operation cannot be a Reference Object in OpenAPI (only its path item can): the $ref is followed"
        case .schemaNestingTooDeep(let limit):
            return "schema nested too deep: more than \(limit) levels below the top of its file"
        case .unsupportedDialect(let dialect):
            return
                "schema dialect \(dialect) is not supported: use https://json-schema.org/draft/2020-12/schema or "
                + SchemaDialect.openAPI31DialectURI
        case .duplicateOperationId(let id, let first):
            return "operationId \(id) is already used at \(first)"
        case .clashingPathTemplates(let method, let template, let first, let location):
            return "\(method) \(template) clashes with \(method) \(first) (at \(location)): they match the same paths"
        case .wrongType(let member, let expected, let found):
            return
                "\(member) must be \(Self.article(expected)) \(expected.rawValue), found \(Self.article(found)) \(found.rawValue)"
        case .missingMember(let member, let container):
            return "\(container) has no \(member)"
        case .invalidResponseKey(let key):
            return "response key \"\(key)\" is not a status code (200), a range (2XX) or default"
        case .invalidPathTemplate(let template):
            return "path \"\(template)\" is not a path template: it must start with / and pair its braces around names"
        case .invalidParameterLocation(let location):
            return "parameter location \"\(location)\" is not one of path, query, header, cookie"
        case .pathParameterNotRequired(let name):
            return "path parameter \(name) must have required: true"
        case .unknownIgnoreEntry(let entry):
            return "ignore entry \"\(entry)\" names no operation (use an operationId, \"METHOD /path\" or \"/path\")"
        }
    }

    /// The kind's name, as the summary of a document's warnings counts them (`... and 212 more of kind
    /// unknown-format`).
    package var kindName: String {
        switch kind {
        case .notOpenAPI3: "not-openapi-3"
        case .unsupportedVersion: "unsupported-version"
        case .readFailed: "read-failed"
        case .referencedFileMissing: "referenced-file-missing"
        case .unresolvableReference: "unresolvable-reference"
        case .externalReference: "external-reference"
        case .referenceCycle: "reference-cycle"
        case .invalidSchema: "invalid-schema"
        case .schemaNestingTooDeep: "schema-nesting-too-deep"
        case .unsupportedDialect: "unsupported-dialect"
        case .duplicateOperationId: "duplicate-operation-id"
        case .clashingPathTemplates: "clashing-path-templates"
        case .wrongType: "wrong-type"
        case .missingMember: "missing-member"
        case .invalidResponseKey: "invalid-response-key"
        case .invalidPathTemplate: "invalid-path-template"
        case .invalidParameterLocation: "invalid-parameter-location"
        case .pathParameterNotRequired: "path-parameter-not-required"
        case .unknownIgnoreEntry: "unknown-ignore-entry"
        case .keywordNotInOpenAPI30: "keyword-not-in-3.0"
        case .booleanExclusiveBound: "boolean-exclusive-bound"
        case .nullableInOpenAPI31: "nullable-in-3.1"
        case .unknownFormat: "unknown-format"
        case .exampleMisuse: "example-misuse"
        case .operationReference: "operation-reference"
        }
    }

    /// `location, at /pointer: message` (without `at` when the problem has no pointer or is at the document's top).
    package var description: String {
        "\(location)" + (pointerText.map { ", at \($0)" } ?? "") + ": \(message)"
    }

    /// The problem's JSON Pointer as a message shows it (`/paths/~1users/get/responses/200`: escaped for JSON Pointer,
    /// then for the display, ``JSONPointer/shown(_:)``); nil without a pointer or at the document's top.
    package var pointerText: String? {
        guard let pointer, !pointer.isEmpty else { return nil }
        return JSONPointer.shown(pointer)
    }

    /// The bound an exclusive keyword sits beside: `minimum` for `exclusiveMinimum`.
    private static func sibling(of keyword: String) -> String {
        keyword == "exclusiveMaximum" ? "maximum" : "minimum"
    }

    private static func words(_ misuse: ExampleMisuse) -> String {
        switch misuse {
        case .examplesInOpenAPI30Schema:
            return "examples is not a keyword of OpenAPI 3.0's Schema Object (it has example): ignored"
        case .schemaExamplesNotArray(let found):
            return
                "a schema's examples must be an array (JSON Schema 2020-12), found \(article(found)) \(found.rawValue): "
                + "ignored"
        case .bothExampleAndExamples:
            return "example and examples exclude each other here: both are read as examples"
        case .examplesNotMap(let found):
            return "examples must be a map of Example Objects, found \(article(found)) \(found.rawValue): ignored"
        case .entryNotExampleObject(let name):
            return
                "examples entry \"\(name)\" is not an Example Object (it has no value, externalValue or $ref): ignored"
        }
    }

    private static func article(_ type: ValueType) -> String {
        type == .object || type == .array ? "an" : "a"
    }
}

extension OpenAPILoadFailure: CustomStringConvertible {
    /// Every problem, one per line.
    package var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
