package import APITestJSON
package import Foundation

/// A compiled JSON Schema (draft 2020-12 or draft-07) that validates many instances.
///
/// Compiling resolves every `$ref` up front (bundled meta-schemas, then the resolver), so validation does no
/// I/O and a bad or unresolvable schema fails at `init`, with the location of the problem.
///
/// ```swift
/// let schema = try JSONSchema(JSONParser.parse(text))
/// let result = schema.validate(instance)
/// for error in result.errors { print(error) }   // /users/0/age: must be >= 0, got -3 (minimum at ...)
/// ```
package struct JSONSchema: Sendable {
    /// The default base URI of a schema given without one.
    package static let defaultBaseURI = "https://apitest.invalid/schema.json"

    /// The dialect of the root schema.
    package let draft: JSONSchemaDraft
    /// The base URI the root schema was compiled with.
    package let baseURI: String
    /// Annotations (`readOnly`, `writeOnly`) whose properties `required` does not require in this validation.
    package private(set) var requiredExemptions: Set<String> = []
    private let compiled: CompiledSchema

    /// Compiles `value`.
    ///
    /// - Parameters:
    ///   - baseURI: the retrieval URI of the schema, against which relative `$id`s and `$ref`s resolve;
    ///     ``defaultBaseURI`` when `nil`.
    ///   - draft: the dialect when the schema has no `$schema`; 2020-12 when `nil`. A `$schema` naming a
    ///     supported draft or a resolvable meta-schema always wins.
    ///   - resolver: supplies referenced documents other than the bundled meta-schemas.
    package init(
        _ value: JSONValue, baseURI: String? = nil, draft: JSONSchemaDraft? = nil,
        resolver: (any JSONSchemaResolver)? = nil
    ) throws(JSONSchemaError) {
        let uri = URIReference(baseURI ?? Self.defaultBaseURI).withoutFragment.text
        let registry = SchemaRegistry(resolver: resolver)
        let document = try registry.add(value, uri: uri, fallbackDraft: draft ?? .draft2020)
        let compiler = SchemaCompiler(registry: registry)
        self.compiled = try compiler.compile(documentURI: uri)
        self.draft = document.draft
        self.baseURI = uri
    }

    /// A schema compiled elsewhere (``JSONSchemaBatchCompiler``).
    init(compiled: CompiledSchema, draft: JSONSchemaDraft, baseURI: String) {
        self.compiled = compiled
        self.draft = draft
        self.baseURI = baseURI
    }

    /// Reads and compiles the schema file at `fileURL`; relative references resolve to files next to it.
    ///
    /// - Parameter resolver: used instead of a ``DirectoryJSONSchemaResolver`` for the file's folder.
    package init(
        contentsOf fileURL: URL, draft: JSONSchemaDraft? = nil, resolver: (any JSONSchemaResolver)? = nil
    )
        throws(JSONSchemaError)
    {
        let value: JSONValue
        do {
            value = try JSONParser.parse(try Data(contentsOf: fileURL))
        } catch {
            throw JSONSchemaError(
                kind: .resolverFailure, documentURI: fileURL.absoluteString, schemaPath: "",
                reason: "cannot read schema file \(fileURL.path): \(JSONParseError.describing(error))")
        }
        let folder = fileURL.deletingLastPathComponent()
        try self.init(
            value, baseURI: fileURL.standardizedFileURL.absoluteString, draft: draft,
            resolver: resolver ?? DirectoryJSONSchemaResolver(directory: folder))
    }

    /// The same compiled schema, validating with `required` not requiring the properties whose schemas set one of
    /// `annotations` (`readOnly`, `writeOnly`) to true: the way an API reads a schema for one direction (a request
    /// need not send the `readOnly` properties a response must have). Nothing is compiled again.
    package func exemptingRequired(annotatedWith annotations: Set<String>) -> JSONSchema {
        var copy = self
        copy.requiredExemptions = annotations
        return copy
    }

    /// Validates `instance`, returning every failure with its instance path, keyword and schema path.
    ///
    /// - Parameter maximumErrors: stop recording failures after this many (`isTruncated` then says so); the
    ///   verdict is the same, and a large document that fails everywhere costs neither the time nor the memory
    ///   of millions of messages. `nil`: every failure.
    package func validate(_ instance: JSONValue, maximumErrors: Int? = nil) -> JSONSchemaValidationResult {
        // Most values are valid: a quick verdict without paths or messages settles those.
        let valueCount = Self.valueCount(instance)
        if quickVerdict(instance, in: JSONValueDocument(), valueCount: valueCount) == true, !Task.isCancelled {
            return JSONSchemaValidationResult(isValid: true, errors: [], isTruncated: false)
        }
        return validate(instance, in: JSONValueDocument(), maximumErrors: maximumErrors, valueCount: valueCount)
    }

    /// Validates the document a tape holds, reading it in place: no tree of values is built (only the scalars
    /// and member names a keyword looks at are decoded, one at a time). The same result as validating
    /// `tape.root`.
    package func validate(_ tape: JSONTape, maximumErrors: Int? = nil) -> JSONSchemaValidationResult {
        guard tape.count > 0 else { return validate(JSONValue.null, maximumErrors: maximumErrors) }
        // Most documents are valid: a quick verdict without paths or messages settles those.
        if quickVerdict(tape) == true, !Task.isCancelled {
            return JSONSchemaValidationResult(isValid: true, errors: [], isTruncated: false)
        }
        return validate(0, in: tape, maximumErrors: maximumErrors, valueCount: tape.count)
    }

    /// The verdict of the quick check that ``validate(_:maximumErrors:)`` runs first on a tape: `true` or `false`
    /// when it can tell, `nil` when only the full evaluation can (a keyword it does not read, or a schema that
    /// collects annotations). A definite verdict is always the full evaluation's.
    package func quickVerdict(_ tape: JSONTape) -> Bool? {
        guard tape.count > 0 else { return nil }
        // Names and strings as written are compared over the text's bytes in place.
        return tape.text.withJSONBytes { bytes in
            quickVerdict(0, in: TapeText(tape: tape, bytes: bytes), valueCount: tape.count)
        }
    }

    /// The verdict of the quick check that ``validate(_:maximumErrors:)`` runs first on a value (see the tape's).
    package func quickVerdict(_ instance: JSONValue) -> Bool? {
        quickVerdict(instance, in: JSONValueDocument(), valueCount: Self.valueCount(instance))
    }

    /// Whether the string whose UTF-8 bytes are `bytes` is valid, read from the bytes in place when the quick check
    /// can tell at once: true only for ASCII bytes (each one a code point) that the root schema accepts by its scalar
    /// plan (or a root of `true` or without keywords), where ``validate(_:maximumErrors:)`` of that `.string` is
    /// valid with no errors; false when it cannot tell so, or the string is invalid (validate the value then). For a
    /// contract's path parameters, checked for every request.
    package func acceptsASCIIString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !compiled.tracksAnnotations else { return false }
        let root = compiled.root
        let holds: Bool?
        if let boolean = root.boolean {
            holds = boolean
        } else if root.keywords.isEmpty {
            holds = true
        } else if let plan = root.scalarPlan, !bytes.contains(where: { $0 >= 0x80 }) {
            holds = plan.verdict(kind: .string, text: bytes, integer: nil)
        } else {
            holds = nil
        }
        return holds == true && !Task.isCancelled
    }

    private func quickVerdict<Document: QuickCheckDocument>(
        _ node: Document.Node, in document: Document, valueCount: Int
    ) -> Bool? {
        guard !compiled.tracksAnnotations else { return nil }
        let verdict = SchemaQuickCheck.withCheck(
            document: document, requiredExemptions: requiredExemptions,
            maximumSteps: SchemaBudget.maximumSteps(forValues: valueCount)
        ) { check in check.verdict(compiled.root, node) }
        switch verdict {
        case .valid: return true
        case .invalid: return false
        case .unknown: return nil
        }
    }

    private func validate<Document: SchemaDocument>(
        _ instance: Document.Node, in document: Document, maximumErrors: Int?, valueCount: Int
    ) -> JSONSchemaValidationResult {
        var evaluator = SchemaEvaluator(schema: compiled, document: document)
        evaluator.maximumSteps = SchemaBudget.maximumSteps(forValues: valueCount)
        // Room for the usual depths at once, rather than growing each path from empty on every validation.
        evaluator.schemaPath.reserveCapacity(16)
        evaluator.instancePath.reserveCapacity(8)
        evaluator.maximumErrors = maximumErrors.map { max(1, $0) }
        evaluator.requiredExemptions = requiredExemptions
        var annotations = Annotations()
        let valid = evaluator.evaluate(compiled.root, instance, &annotations)
        if evaluator.interruption == nil, Task.isCancelled { evaluator.interruption = .cancelled }
        if let interruption = evaluator.interruption {
            // Half an evaluation has no verdict (a `not` over a subschema cut short would pass).
            return JSONSchemaValidationResult(isValid: false, errors: [interruption.error], isTruncated: false)
        }
        return JSONSchemaValidationResult(isValid: valid, errors: evaluator.errors, isTruncated: evaluator.truncated)
    }

    /// How many values `instance` holds (itself, its items and members, theirs...), for the step budget.
    static func valueCount(_ instance: JSONValue) -> Int {
        switch instance {
        case .array, .object: break
        default: return 1 // a parameter's or a header's scalar: no list of pending values
        }
        var count = 0
        var pending = [instance]
        while let value = pending.popLast() {
            count += 1
            switch value {
            case .array(let items): pending += items
            case .object(let object): for (_, member) in object { pending.append(member) }
            default: continue
            }
        }
        return count
    }

    /// Whether `instance` is valid.
    package func isValid(_ instance: JSONValue) -> Bool {
        validate(instance).isValid
    }
}
