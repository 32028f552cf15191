import APITestJSON
import APITestSupport

/// What ``SchemaQuickCheck`` reads of a document besides what the evaluator reads: a value's kind and its scalar,
/// without decoding every scalar into a ``SchemaShape``.
protocol QuickCheckDocument: SchemaDocument {
    /// The kind of the value `node`.
    func kind(of node: Node) -> JSONTape.Kind
    /// The decoded string of a string node.
    func string(of node: Node) -> String
    /// The decoded number of a number node.
    func number(of node: Node) -> JSONValue
    /// The bytes of a string or member-name node as written, when they are ASCII without an escape (each byte a
    /// code point); nil otherwise, or when the document has no text (a value tree).
    func plainText(of node: Node) -> UnsafeBufferPointer<UInt8>?
    /// Calls `body` with (name node, value node) for each member of an object node as written (a repeated name
    /// each time), in order, until it returns false, and returns true; false, without calling `body`, when the
    /// document cannot walk members that way.
    func forEachWrittenMember(of node: Node, _ body: (_ key: Node, _ value: Node) -> Bool) -> Bool
    /// The value of a number node that is an integer as ``JSONParser`` reads one (`.integer`), when the document can
    /// tell without decoding it otherwise; nil when it cannot.
    func plainInteger(of node: Node) -> Int64?
}

extension QuickCheckDocument {
    func plainText(of node: Node) -> UnsafeBufferPointer<UInt8>? { nil }
    func plainInteger(of node: Node) -> Int64? { nil }
    func forEachWrittenMember(of node: Node, _ body: (_ key: Node, _ value: Node) -> Bool) -> Bool { false }
}

/// A verdict on a document without the evaluator's bookkeeping (no schema or instance paths, no annotations, no
/// messages): what ``JSONSchema/validate(_:maximumErrors:)`` asks first, since almost every response and parameter
/// a test checks is valid. Only a `.valid` verdict is used as the result; anything else is evaluated again by
/// ``SchemaEvaluator``, which finds the errors.
///
/// The check answers `.unknown` for every keyword it does not read (`$dynamicRef`, `uniqueItems`, `contains` with a
/// maximum, the `unevaluated*` keywords) and for schemas nested too deeply, so it is never less strict than the
/// evaluator: a definite verdict is the evaluator's verdict. The official JSON-Schema-Test-Suite checks that
/// (`JSONSchemaTestSuiteTests`).
struct SchemaQuickCheck<Document: QuickCheckDocument> {
    /// A three-valued verdict: `.invalid` is as definite as `.valid` (it is negated under `not`).
    enum Verdict: Equatable {
        case valid, invalid, unknown

        init(_ holds: Bool) {
            self = holds ? .valid : .invalid
        }
    }

    /// A value of the document.
    typealias Node = Document.Node
    /// One member of an object: its name, a string node for the name, and its value.
    typealias Member = (name: String, key: Node, value: Node)

    let document: Document
    /// Annotations whose properties `required` does not require (``JSONSchema/exemptingRequired(annotatedWith:)``).
    let requiredExemptions: Set<String>
    /// The steps the check may take (``SchemaBudget``); past them, or once the task is cancelled, it answers
    /// `.unknown` and leaves the verdict, and the error saying why, to the evaluator.
    let budget: Budget

    /// Steps taken and allowed, counted in memory the caller of ``withCheck(document:requiredExemptions:maximumSteps:_:)``
    /// holds for the check (so the check's non-mutating walk can count, with no object allocated and counted for
    /// each check: one runs for every response and parameter a contract reads).
    struct Budget {
        let maximumSteps: Int
        /// The steps taken; past `maximumSteps`, or once the task is cancelled, `Int.max` (spent).
        let steps: UnsafeMutablePointer<Int>

        /// Counts one subschema; false once the budget is spent or the task cancelled.
        func spend() -> Bool {
            guard steps.pointee != Int.max else { return false }
            steps.pointee += 1
            if steps.pointee > maximumSteps
                || (steps.pointee % SchemaBudget.cancellationInterval == 0 && Task.isCancelled)
            {
                steps.pointee = Int.max
                return false
            }
            return true
        }
    }

    /// Calls `body` with a check of `document` that may take `maximumSteps` steps (its budget lives as long as the
    /// call).
    static func withCheck<Result>(
        document: Document, requiredExemptions: Set<String>, maximumSteps: Int, _ body: (Self) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { steps in
            steps.baseAddress!.initialize(to: 0)
            return body(
                SchemaQuickCheck(
                    document: document, requiredExemptions: requiredExemptions,
                    budget: Budget(maximumSteps: maximumSteps, steps: steps.baseAddress!)))
        }
    }

    /// Nesting of subschemas past which the check gives up (`$ref` cycles end here; the evaluator reports them).
    static var maximumDepth: Int { 64 }

    // MARK: - Nodes

    /// The verdict of `node` on the value at `index`.
    func verdict(_ node: SchemaNode, _ index: Node, depth: Int = 0) -> Verdict {
        if let boolean = node.boolean { return Verdict(boolean) }
        guard depth < Self.maximumDepth, budget.spend() else { return .unknown }
        if node.keywords.isEmpty { return .valid }
        let kind = document.kind(of: index)
        if let plan = node.scalarPlan,
            let holds = plan.verdict(
                kind: kind, text: kind == .string ? document.plainText(of: index) : nil,
                integer: kind == .number ? document.plainInteger(of: index) : nil)
        {
            return Verdict(holds)
        }
        var members: [Member]?
        var result = Verdict.valid
        guard let plan = node.objectPlan else {
            for keyword in node.keywords {
                switch verdict(keyword, index, kind, depth: depth, members: &members) {
                case .valid: continue
                case .invalid: return .invalid
                case .unknown: result = .unknown
                }
            }
            return result
        }
        // The keywords the plan holds hold for a value that is not an object; for an object, one pass decides them.
        if kind == .object {
            result = verdict(plan, index, depth: depth)
            if result == .invalid { return .invalid }
        }
        for (position, keyword) in node.keywords.enumerated() where !plan.covers[position] {
            switch verdict(keyword, index, kind, depth: depth, members: &members) {
            case .valid: continue
            case .invalid: return .invalid
            case .unknown: result = .unknown
            }
        }
        return result
    }

    /// The verdict of an object plan's keywords (`properties`, `additionalProperties`, `required`) on the object at
    /// `index`: each member's name looked up once.
    private func verdict(_ plan: ObjectPlan, _ index: Node, depth: Int) -> Verdict {
        if let verdict = writtenVerdict(plan, index, depth: depth) { return verdict }
        var result = Verdict.valid
        var seen: UInt64 = 0
        document.forEachMember(of: index) { name, _, value in
            if let slot = plan.slot(of: name) {
                seen |= 1 << UInt64(slot)
                let entry = plan.slots[slot]
                if let schema = entry.schema {
                    result = Self.combine(result, verdict(schema, value, depth: depth + 1))
                } else if !entry.isDeclared, let additional = plan.additional {
                    result = Self.combine(result, verdict(additional, value, depth: depth + 1))
                }
            } else if let additional = plan.additional {
                result = Self.combine(result, verdict(additional, value, depth: depth + 1))
            }
            return result != .invalid
        }
        if result == .invalid || seen & plan.requiredMask != plan.requiredMask { return .invalid }
        return result
    }

    /// ``verdict(_:_:depth:)`` of a plan over the members' names as written, each compared with the slots' names
    /// byte for byte (nothing decoded); nil when that cannot tell the same: a name that is not plain ASCII, a name
    /// written twice (the members are read with a repeated name once, with its last value), or an undeclared name
    /// where `additionalProperties` is a schema, not a boolean.
    private func writtenVerdict(_ plan: ObjectPlan, _ index: Node, depth: Int) -> Verdict? {
        var result = Verdict.valid
        var seen: UInt64 = 0
        var readsAsWritten = true
        let walked = document.forEachWrittenMember(of: index) { key, value in
            guard let name = document.plainText(of: key) else {
                readsAsWritten = false
                return false
            }
            if let slot = plan.slot(of: name) {
                let bit: UInt64 = 1 << UInt64(slot)
                guard seen & bit == 0 else {
                    readsAsWritten = false
                    return false
                }
                seen |= bit
                // Once invalid, the names are still read: a later repeat of one would make its last value count.
                guard result != .invalid else { return true }
                let entry = plan.slots[slot]
                if let schema = entry.schema {
                    result = Self.combine(result, verdict(schema, value, depth: depth + 1))
                } else if !entry.isDeclared, let additional = plan.additional {
                    result = Self.combine(result, verdict(additional, value, depth: depth + 1))
                }
            } else if let additional = plan.additional {
                guard let allowed = additional.boolean else {
                    readsAsWritten = false
                    return false
                }
                if !allowed { result = .invalid }
            }
            return true
        }
        guard walked, readsAsWritten else { return nil }
        if result == .invalid || seen & plan.requiredMask != plan.requiredMask { return .invalid }
        return result
    }

    /// The verdict of one keyword on the value at `index`, of kind `kind`.
    private func verdict(
        _ keyword: Keyword, _ index: Node, _ kind: JSONTape.Kind, depth: Int, members: inout [Member]?
    ) -> Verdict {
        switch keyword.check {
        case .ref(let target):
            return verdict(target, index, depth: depth + 1)
        case .dynamicRef, .unevaluatedItems, .unevaluatedProperties, .uniqueItems:
            return .unknown
        case .type(let names):
            return Verdict(names.contains { matches(type: $0, index, kind) })
        case .const(let value):
            if kind == .string, let text = document.plainText(of: index) {
                return Verdict(Self.equals(text, value))
            }
            return Verdict(document.isEqual(index, to: value))
        case .enumeration(let values):
            if kind == .string, let text = document.plainText(of: index) {
                return Verdict(values.contains { Self.equals(text, $0) })
            }
            return Verdict(values.contains { document.isEqual(index, to: $0) })
        case .allOf, .anyOf, .oneOf, .not, .conditional:
            return logic(keyword.check, index, depth: depth)
        case .multipleOf, .maximum, .minimum:
            guard kind == .number else { return .valid }
            return number(keyword.check, document.number(of: index))
        case .maxLength, .minLength, .pattern:
            guard kind == .string else { return .valid }
            if let text = document.plainText(of: index), let verdict = plainString(keyword.check, text) {
                return verdict
            }
            return string(keyword.check, document.string(of: index))
        case .maxItems, .minItems, .prefixItems, .items, .contains:
            guard kind == .array else { return .valid }
            return array(keyword.check, index, depth: depth)
        case .maxProperties, .minProperties, .required, .annotatedRequired, .dependentRequired, .properties,
            .patternProperties, .additionalProperties, .propertyNames, .dependentSchemas:
            guard kind == .object else { return .valid }
            // Read once per object, as the evaluator reads them: a repeated name once, with its last value.
            if members == nil { members = memberList(index) }
            let list = members ?? []
            return object(keyword.check, index, list, depth: depth)
        }
    }

    /// Whether the value at `index` is of the JSON Schema type `name` (an integral number is an `integer`).
    private func matches(type name: String, _ index: Node, _ kind: JSONTape.Kind) -> Bool {
        switch kind {
        case .null: name == "null"
        case .true, .false: name == "boolean"
        case .string: name == "string"
        case .array: name == "array"
        case .object: name == "object"
        case .number:
            name == "number" || (name == "integer" && document.number(of: index).matchesSchemaType("integer"))
        }
    }

    // MARK: - Logic

    private func logic(_ check: Keyword.Check, _ index: Node, depth: Int) -> Verdict {
        switch check {
        case .allOf(let nodes):
            var result = Verdict.valid
            for node in nodes {
                switch verdict(node, index, depth: depth + 1) {
                case .valid: continue
                case .invalid: return .invalid
                case .unknown: result = .unknown
                }
            }
            return result
        case .anyOf(let nodes):
            var result = Verdict.invalid
            for node in nodes {
                switch verdict(node, index, depth: depth + 1) {
                case .valid: return .valid
                case .invalid: continue
                case .unknown: result = .unknown
                }
            }
            return result
        case .oneOf(let nodes):
            var matched = 0
            for node in nodes {
                switch verdict(node, index, depth: depth + 1) {
                case .valid: matched += 1
                case .invalid: continue
                case .unknown: return .unknown
                }
            }
            return Verdict(matched == 1)
        case .not(let node):
            switch verdict(node, index, depth: depth + 1) {
            case .valid: return .invalid
            case .invalid: return .valid
            case .unknown: return .unknown
            }
        case .conditional(let condition, let then, let otherwise):
            let holds: Bool
            switch verdict(condition, index, depth: depth + 1) {
            case .valid: holds = true
            case .invalid: holds = false
            case .unknown: return .unknown
            }
            guard let branch = holds ? then : otherwise else { return .valid }
            return verdict(branch, index, depth: depth + 1)
        default:
            return .unknown
        }
    }

    // MARK: - Scalars

    private func number(_ check: Keyword.Check, _ number: JSONValue) -> Verdict {
        switch check {
        case .multipleOf(let divisor, _):
            return Verdict(number.numberValue?.isMultiple(of: divisor) ?? false)
        case .maximum(let limit, let exclusive):
            let order = JSONValue.numericOrder(number, limit) ?? 0
            return Verdict(exclusive ? order < 0 : order <= 0)
        case .minimum(let limit, let exclusive):
            let order = JSONValue.numericOrder(number, limit) ?? 0
            return Verdict(exclusive ? order > 0 : order >= 0)
        default:
            return .unknown
        }
    }

    private func string(_ check: Keyword.Check, _ string: String) -> Verdict {
        switch check {
        // A code point takes one to four UTF-8 bytes: the byte count often settles a length without counting.
        case .maxLength(let limit):
            string.utf8.count <= limit ? .valid : Verdict(string.unicodeScalars.count <= limit)
        case .minLength(let limit):
            string.utf8.count < limit
                ? .invalid
                : (string.utf8.count + 3) / 4 >= limit ? .valid : Verdict(string.unicodeScalars.count >= limit)
        case .pattern(let regex): (try? regex.matchesOrInterrupts(string)).map(Verdict.init) ?? .unknown
        default: .unknown
        }
    }

    /// ``string(_:_:)`` of a string written as plain ASCII (a code point a byte); nil when the pattern's automaton
    /// cannot read it.
    private func plainString(_ check: Keyword.Check, _ text: UnsafeBufferPointer<UInt8>) -> Verdict? {
        switch check {
        case .maxLength(let limit): Verdict(text.count <= limit)
        case .minLength(let limit): Verdict(text.count >= limit)
        case .pattern(let regex): regex.matchesPrintableASCII(text).map(Verdict.init)
        default: nil
        }
    }

    /// Whether the plain ASCII string `text` equals `value` under JSON Schema equality (a string, by code points).
    private static func equals(_ text: UnsafeBufferPointer<UInt8>, _ value: JSONValue) -> Bool {
        guard case .string(let string) = value, string.utf8.count == text.count else { return false }
        return string.utf8.withContiguousStorageIfAvailable { ObjectPlan.sameBytes(text, $0) }
            ?? string.utf8.elementsEqual(text)
    }

    // MARK: - Arrays

    private func array(_ check: Keyword.Check, _ index: Node, depth: Int) -> Verdict {
        switch check {
        case .maxItems(let limit):
            return Verdict(document.elementCount(of: index) <= limit)
        case .minItems(let limit):
            return Verdict(document.elementCount(of: index) >= limit)
        case .prefixItems(let nodes):
            var result = Verdict.valid
            var position = 0
            document.forEachElement(of: index) { item in
                guard position < nodes.count else { return false }
                result = Self.combine(result, verdict(nodes[position], item, depth: depth + 1))
                position += 1
                return result != .invalid
            }
            return result
        case .items(let node, let start):
            var result = Verdict.valid
            var position = 0
            document.forEachElement(of: index) { item in
                defer { position += 1 }
                guard position >= start else { return true }
                result = Self.combine(result, verdict(node, item, depth: depth + 1))
                return result != .invalid
            }
            return result
        case .contains(let node, let minimum, let maximum):
            // Without a maximum, enough definite matches settle it; an uncertain item could only add one.
            guard maximum == nil else { return .unknown }
            var matched = 0
            var uncertain = false
            document.forEachElement(of: index) { item in
                switch verdict(node, item, depth: depth + 1) {
                case .valid: matched += 1
                case .invalid: break
                case .unknown: uncertain = true
                }
                return matched < minimum
            }
            if matched >= minimum { return .valid }
            return uncertain ? .unknown : .invalid
        default:
            return .unknown
        }
    }

    // MARK: - Objects

    /// The members of the object at `index`, as ``SchemaDocument/forEachMember(of:_:)`` gives them to the evaluator.
    private func memberList(_ index: Node) -> [Member] {
        var members: [Member] = []
        document.forEachMember(of: index) { name, key, value in
            members.append((name, key, value))
            return true
        }
        return members
    }

    private func object(_ check: Keyword.Check, _ index: Node, _ members: [Member], depth: Int) -> Verdict {
        func has(_ name: String) -> Bool { members.contains { $0.name.hasSameCodePoints(as: name) } }
        switch check {
        case .maxProperties(let limit):
            return Verdict(members.count <= limit)
        case .minProperties(let limit):
            return Verdict(members.count >= limit)
        case .required(let names):
            return Verdict(names.allSatisfy(has))
        case .annotatedRequired(let entries):
            return Verdict(
                entries.allSatisfy { has($0.name) || $0.annotations.contains(where: requiredExemptions.contains) })
        case .dependentRequired(let pairs):
            return Verdict(pairs.allSatisfy { name, required in !has(name) || required.allSatisfy(has) })
        case .properties(let nodes):
            return each(members) { member in
                nodes.valueComparingFew(forKey: CodePointKey(member.name)).map {
                    verdict($0, member.value, depth: depth + 1)
                }
            }
        case .patternProperties(let pairs):
            var result = Verdict.valid
            for member in members {
                for (regex, node) in pairs where regex.matches(member.name) {
                    result = Self.combine(result, verdict(node, member.value, depth: depth + 1))
                    if result == .invalid { return .invalid }
                }
            }
            return result
        case .additionalProperties(let node, let names, let patterns):
            return each(members) { member in
                if names.containsComparingFew(CodePointKey(member.name))
                    || patterns.contains(where: { $0.matches(member.name) })
                {
                    return nil
                }
                return verdict(node, member.value, depth: depth + 1)
            }
        case .propertyNames(let node):
            return each(members) { member in verdict(node, member.key, depth: depth + 1) }
        case .dependentSchemas(let pairs):
            var result = Verdict.valid
            for (name, node) in pairs where has(name) {
                result = Self.combine(result, verdict(node, index, depth: depth + 1))
                if result == .invalid { return .invalid }
            }
            return result
        default:
            return .unknown
        }
    }

    /// The combined verdict of `check` on each member (`nil`: the member is not checked).
    private func each(_ members: [Member], _ check: (Member) -> Verdict?) -> Verdict {
        var result = Verdict.valid
        for member in members {
            guard let verdict = check(member) else { continue }
            result = Self.combine(result, verdict)
            if result == .invalid { return .invalid }
        }
        return result
    }

    /// Both verdicts together: invalid if either is, valid only if both are.
    private static func combine(_ lhs: Verdict, _ rhs: Verdict) -> Verdict {
        if lhs == .invalid || rhs == .invalid { return .invalid }
        return lhs == .valid && rhs == .valid ? .valid : .unknown
    }
}

// MARK: - Documents

extension JSONValueDocument: QuickCheckDocument {
    func plainInteger(of node: JSONValue) -> Int64? {
        if case .integer(let value) = node { value } else { nil }
    }

    func kind(of node: JSONValue) -> JSONTape.Kind {
        switch node {
        case .null: .null
        case .bool(let value): value ? .true : .false
        case .integer, .double, .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    func string(of node: JSONValue) -> String {
        node.stringValue ?? ""
    }

    func number(of node: JSONValue) -> JSONValue {
        node
    }
}
