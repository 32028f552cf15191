import APITestJSON

/// Validates one instance, a node of a ``SchemaDocument``, against a ``CompiledSchema``, collecting errors with
/// their locations.
struct SchemaEvaluator<Document: SchemaDocument> {
    /// A value of the document.
    typealias Node = Document.Node

    /// Nesting of schemas deeper than this is reported as an error rather than risking the thread's stack
    /// (a debug build overflows the 512 KiB stack of a concurrency thread at about 1,000 levels).
    static var maximumDepth: Int { 500 }

    /// A step into the instance: an array position or a member name, made text only when an error is recorded.
    enum InstanceToken {
        case index(Int)
        case name(String)

        /// The JSON Pointer reference token.
        var text: String {
            switch self {
            case .index(let index): String(index)
            case .name(let name): name
            }
        }
    }

    let schema: CompiledSchema
    /// The document the instance and every node the evaluator reaches belong to.
    let document: Document
    var instancePath: [InstanceToken] = []
    var schemaPath: [String] = []
    /// Resources entered, outermost first (the dynamic scope).
    var scope: [String] = []
    var errors: [JSONSchemaValidationError] = []
    /// Whether failures are wanted here: not inside subschemas whose errors are thrown away (`not`, `if`,
    /// `contains`, the branches of `anyOf` and `oneOf` until they are known to fail), so that a deep document does
    /// not pay for messages and paths nobody reads.
    var recordsFailures = true
    /// The most errors recorded; once reached, evaluation goes on unrecorded (and stops at the first failure).
    var maximumErrors: Int?
    /// Whether `maximumErrors` was reached.
    var truncated = false
    /// Annotations whose properties `required` does not require (``JSONSchema/exemptingRequired(annotatedWith:)``).
    var requiredExemptions: Set<String> = []

    /// Whether a failure is recorded now.
    var recording: Bool { recordsFailures && !truncated }
    var depth = 0
    /// Subschemas evaluated so far (``SchemaBudget``).
    var steps = 0
    /// The most subschemas this evaluation may evaluate.
    var maximumSteps = SchemaBudget.minimumSteps
    /// Why evaluation stopped before its verdict, once it has: every later subschema fails at once.
    var interruption: SchemaBudget.Interruption?
    /// Verdicts of reference targets on values, kept while failures are not recorded (``applyReference(_:_:_:)``).
    var referenceVerdicts: [ReferenceVerdictKey: Bool] = [:]
    /// Reference targets being evaluated, with the instance depth they were entered at: entering one again at
    /// the same instance location can never end (a reference cycle such as `a → b → a`).
    var activeReferences: [(node: ObjectIdentifier, instanceDepth: Int)] = []

    init(schema: CompiledSchema, document: Document) {
        self.schema = schema
        self.document = document
    }

    // MARK: - Nodes

    /// Evaluates `node` against `instance`; adds what it evaluated to `annotations`.
    mutating func evaluate(_ node: SchemaNode, _ instance: Node, _ annotations: inout Annotations) -> Bool {
        if let boolean = node.boolean {
            if !boolean { fail("false", "no value is allowed here (the schema is false)") }
            return boolean
        }
        guard spendStep() else { return false }
        guard depth < Self.maximumDepth else {
            fail(schemaPath.last ?? "$ref", "schema nesting exceeds \(Self.maximumDepth) levels")
            return false
        }
        depth += 1
        let entered = scope.last != node.resourceURI
        if entered { scope.append(node.resourceURI) }
        var valid = true
        let shape = node.keywords.isEmpty ? .array : document.shape(of: instance)
        for keyword in node.keywords {
            schemaPath.append(keyword.name)
            let held = evaluate(keyword, instance, shape, &annotations)
            schemaPath.removeLast()
            if !held {
                valid = false
                // Unrecorded, one failure settles it: a failing subschema's annotations are dropped anyway.
                if !recording { break }
            }
        }
        if entered { scope.removeLast() }
        depth -= 1
        return valid
    }

    /// Counts one subschema; false once the budget is spent or the task cancelled (``interruption`` says which).
    mutating func spendStep() -> Bool {
        guard interruption == nil else { return false }
        steps += 1
        if steps > maximumSteps {
            interruption = .budget(maximumSteps)
        } else if steps % SchemaBudget.cancellationInterval == 0, Task.isCancelled {
            interruption = .cancelled
        }
        return interruption == nil
    }

    /// Evaluates a subschema in place; its annotations count only when it succeeds.
    mutating func apply(_ node: SchemaNode, _ instance: Node, _ annotations: inout Annotations) -> Bool {
        var local = Annotations()
        let valid = evaluate(node, instance, &local)
        if valid && schema.tracksAnnotations { annotations.merge(local) }
        return valid
    }

    /// Follows a reference to `node`, stopping at a cycle that makes no progress through the instance.
    mutating func applyReference(
        _ node: SchemaNode, _ instance: Node, _ annotations: inout Annotations
    )
        -> Bool
    {
        let identity = ObjectIdentifier(node)
        let instanceDepth = instancePath.count
        // Entries are pushed as the instance is entered, so those at this depth are the last ones: scan back only
        // over them (a deep document holds a reference per level below).
        var isCycle = false
        for entry in activeReferences.reversed() {
            guard entry.instanceDepth == instanceDepth else { break }
            if entry.node == identity {
                isCycle = true
                break
            }
        }
        if isCycle {
            fail(
                schemaPath.last ?? "$ref",
                "reference cycle: the schema refers back to itself without consuming the value")
            return false
        }
        // Unrecorded, a reference's verdict on a value depends only on the two when no annotation is collected
        // and no `$dynamicRef` reads the scope: kept, it makes `anyOf` over shared `$ref` chains linear.
        var key: ReferenceVerdictKey?
        if !recording, !schema.tracksAnnotations, schema.dynamicAnchors.isEmpty,
            let value = document.identity(of: instance)
        {
            key = ReferenceVerdictKey(node: identity, value: value)
            if let known = referenceVerdicts[key!] { return known }
        }
        activeReferences.append((identity, instanceDepth))
        let valid = apply(node, instance, &annotations)
        activeReferences.removeLast()
        if let key, interruption == nil { referenceVerdicts[key] = valid }
        return valid
    }

    /// Evaluates a subschema against a child of the instance (a member or an item).
    mutating func applyToChild(
        _ node: SchemaNode, _ child: Node, instanceToken: InstanceToken, schemaToken: String? = nil
    ) -> Bool {
        instancePath.append(instanceToken)
        if let schemaToken { schemaPath.append(schemaToken) }
        var local = Annotations()
        let valid = evaluate(node, child, &local)
        if schemaToken != nil { schemaPath.removeLast() }
        instancePath.removeLast()
        return valid
    }

    /// Applies `node` to a child of the instance; a `false` schema refuses the child outright, saying `refusal`.
    mutating func applyOrRefuse(
        _ node: SchemaNode, _ child: Node, instanceToken: InstanceToken, keyword: String,
        refusal: @autoclosure () -> String
    ) -> Bool {
        guard node.boolean == false else { return applyToChild(node, child, instanceToken: instanceToken) }
        fail(keyword, refusal(), instanceToken: instanceToken)
        return false
    }

    /// Evaluates `body` without recording its failures; returns its result.
    mutating func silently(_ body: (inout SchemaEvaluator) -> Bool) -> Bool {
        let wasRecording = recordsFailures
        recordsFailures = false
        let valid = body(&self)
        recordsFailures = wasRecording
        return valid
    }

    /// A reference target and a value of the document (``SchemaDocument/identity(of:)``).
    struct ReferenceVerdictKey: Hashable {
        let node: ObjectIdentifier
        let value: Int
    }

    // MARK: - Errors

    /// Records a failure of the keyword at the current schema path (unless failures are not being recorded).
    mutating func fail(_ keyword: String, _ message: @autoclosure () -> String) {
        guard recording else { return }
        errors.append(
            JSONSchemaValidationError(
                instancePath: JSONPointer.text(instancePath.map(\.text)), keyword: keyword,
                schemaPath: JSONPointer.text(schemaPath), message: message()))
        if let maximumErrors, errors.count >= maximumErrors { truncated = true }
    }

    /// Records a failure at a child of the instance (`instanceToken`) and of the schema (`schemaTokens`).
    mutating func fail(
        _ keyword: String, _ message: @autoclosure () -> String, instanceToken: InstanceToken,
        schemaTokens: [String] = []
    ) {
        guard recording else { return }
        instancePath.append(instanceToken)
        schemaPath += schemaTokens
        fail(keyword, message())
        schemaPath.removeLast(schemaTokens.count)
        instancePath.removeLast()
    }
}
