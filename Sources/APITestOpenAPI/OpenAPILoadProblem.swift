package import APITestSupport

/// A problem found while loading an OpenAPI document, at the place in the document (or the file) it concerns: an
/// error that stops the load, or a warning the contract carries (``OpenAPIContract/warnings``).
///
/// Its words are in `OpenAPILoadProblem+Description.swift` only.
package struct OpenAPILoadProblem: Sendable, Hashable {
    /// The kinds of JSON value a member of the document can have, for `wrongType`.
    package enum ValueType: String, Sendable, Hashable {
        case object
        case array
        case string
        case boolean
        case number
        case null
    }

    /// What is wrong.
    package enum Kind: Sendable, Hashable {
        /// The document has no `openapi` member; `swagger` is its `swagger` version when it is a Swagger (OpenAPI
        /// 2.0) document.
        case notOpenAPI3(swagger: String?)
        /// `openapi` names a version other than 3.0.x and 3.1.x.
        case unsupportedVersion(String)
        /// A file of the document cannot be read: the root, or one a `$ref` names.
        case readFailed(path: String, OpenAPIReadError)
        /// A `$ref` names a file that does not exist.
        case referencedFileMissing(reference: String, path: String)
        /// A `$ref` names a place that does not exist in its file.
        case unresolvableReference(reference: String)
        /// A `$ref` names a URL: it is not followed, apitest never fetches.
        case externalReference(reference: String)
        /// Reference Objects that lead back to themselves: each reference of the cycle, in order.
        case referenceCycle([String])
        /// A schema that does not compile: the schema compiler's reason.
        case invalidSchema(reason: String)
        /// A schema nested deeper in its file than `limit` JSON Pointer tokens.
        case schemaNestingTooDeep(limit: Int)
        /// `jsonSchemaDialect` or a schema's `$schema` names a dialect other than 2020-12 and OpenAPI 3.1's.
        case unsupportedDialect(String)
        /// Two operations have the same `operationId`; where the first is.
        case duplicateOperationId(String, first: SourceLocation)
        /// Two path templates that match the same paths both declare `method`; the first template and where it is.
        case clashingPathTemplates(method: String, template: String, first: String, firstLocation: SourceLocation)
        /// A member has a value of the wrong type.
        case wrongType(member: String, expected: ValueType, found: ValueType)
        /// A member that must be present is missing (`name`, `in` of a parameter).
        case missingMember(member: String, in: String)
        /// A key of `responses` that is neither a status code, a range like `2XX`, nor `default`.
        case invalidResponseKey(String)
        /// A key of `paths` that is not a path template (does not start with `/`, unbalanced braces).
        case invalidPathTemplate(String)
        /// A parameter's `in` is none of `path`, `query`, `header`, `cookie`.
        case invalidParameterLocation(String)
        /// A path parameter that is not `required: true`.
        case pathParameterNotRequired(String)
        /// An entry of the options' `ignore` names no operation of the document.
        case unknownIgnoreEntry(String)
        /// A warning: an OpenAPI 3.0 schema uses `keyword`, which 3.0's Schema Object lacks (JSON Schema 2020-12 and
        /// OpenAPI 3.1 have it); it is checked as 2020-12 defines it, not ignored.
        case keywordNotInOpenAPI30(keyword: String)
        /// A warning: an OpenAPI 3.1 schema's `keyword` (`exclusiveMinimum`, `exclusiveMaximum`) is OpenAPI 3.0's
        /// boolean `value`; `bound` is its sibling (`minimum`, `maximum`) when `value` is true and it has one: the
        /// schema is read with the 3.1 numeric form (the bound's value), otherwise the keyword is ignored.
        case booleanExclusiveBound(keyword: String, value: Bool, bound: String?)
        /// A warning: an OpenAPI 3.1 schema has OpenAPI 3.0's `nullable`; `addedTo` names what `null` was added to
        /// (`type`, `type and enum`) when it is true beside a `type`, else nil (ignored, as 3.0 ignores it there).
        case nullableInOpenAPI31(value: Bool, addedTo: String?)
        /// A warning: a schema's `format` is none that JSON Schema 2020-12 or the OpenAPI Format Registry defines;
        /// formats are annotations, so it checks nothing. Reported once per format, at its first use.
        case unknownFormat(String)
        /// A warning: `example`/`examples` written as another object than the one it is in defines.
        case exampleMisuse(ExampleMisuse)
        /// A warning: a path item's operation is a Reference Object, which OpenAPI does not allow there; it is
        /// followed, as bundlers follow it.
        case operationReference
    }

    /// How `example` and `examples` are misused, for ``Kind/exampleMisuse(_:)``.
    package enum ExampleMisuse: Sendable, Hashable {
        /// `examples` in an OpenAPI 3.0 Schema Object, which has only `example` (ignored).
        case examplesInOpenAPI30Schema
        /// `examples` in an OpenAPI 3.1 Schema Object that is not an array (JSON Schema's `examples` is; ignored).
        case schemaExamplesNotArray(found: ValueType)
        /// Both `example` and `examples` in a Media Type or Parameter Object, which allows one of them.
        case bothExampleAndExamples
        /// `examples` of a Media Type or Parameter Object that is not a map of Example Objects (`found`, e.g. an
        /// array of values as JSON Schema writes it; ignored).
        case examplesNotMap(found: ValueType)
        /// An entry `name` of a Media Type or Parameter Object's `examples` that is not an Example Object (a bare
        /// value, without `value`, `externalValue` or `$ref`; ignored).
        case entryNotExampleObject(name: String)
    }

    /// What is wrong.
    package var kind: Kind
    /// Where: the member concerned, the `$ref`, or the start of the file.
    package var location: SourceLocation
    /// The same place as a JSON Pointer's reference tokens (unescaped) into its file, when the problem is at a value
    /// of the document (not for a file that does not parse): beside the position, it finds the place in a minified
    /// JSON document, whose every position is on line 1 (``pointerText``).
    package var pointer: [String]?

    /// Whether the problem is a warning: the document loads with it, translated or ignored as its message says
    /// (an error when the options' ``OpenAPIContractOptions/strictSpec`` is set).
    package var isWarning: Bool {
        switch kind {
        case .keywordNotInOpenAPI30, .booleanExclusiveBound, .nullableInOpenAPI31, .unknownFormat, .exampleMisuse,
            .operationReference:
            true
        default:
            false
        }
    }

    /// Creates a problem.
    package init(kind: Kind, location: SourceLocation, pointer: [String]? = nil) {
        self.kind = kind
        self.location = location
        self.pointer = pointer
    }
}

/// Why an OpenAPI document did not load: every problem found, in document order.
package struct OpenAPILoadFailure: Error, Sendable, Hashable {
    /// The problems, never empty.
    package var problems: [OpenAPILoadProblem]

    /// Creates a failure.
    package init(problems: [OpenAPILoadProblem]) {
        self.problems = problems
    }
}
