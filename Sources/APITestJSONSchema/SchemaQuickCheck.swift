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
    var budget = Budget(maximumSteps: SchemaBudget.minimumSteps)

    /// Steps taken and allowed: a reference, so the check's non-mutating walk can count.
    final class Budget {
        let maximumSteps: Int
        // One check's own counter, never shared between threads: read and written without exclusivity checks.
        @exclusivity(unchecked) var steps = 0
        @exclusivity(unchecked) var isSpent = false

        init(maximumSteps: Int) { self.maximumSteps = maximumSteps }

        /// Counts one subschema; false once the budget is spent or the task cancelled.
        func spend() -> Bool {
            guard !isSpent else { return false }
            steps += 1
            if steps > maximumSteps || (steps % SchemaBudget.cancellationInterval == 0 && Task.isCancelled) {
                isSpent = true
            }
            return !isSpent
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
            return Verdict(document.isEqual(index, to: value))
        case .enumeration(let values):
            return Verdict(values.contains { document.isEqual(index, to: $0) })
        case .allOf, .anyOf, .oneOf, .not, .conditional:
            return logic(keyword.check, index, depth: depth)
        case .multipleOf, .maximum, .minimum:
            guard kind == .number else { return .valid }
            return number(keyword.check, document.number(of: index))
        case .maxLength, .minLength, .pattern:
            guard kind == .string else { return .valid }
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

extension JSONTape: QuickCheckDocument {
    func kind(of node: Int) -> Kind {
        kind(node)
    }

    func string(of node: Int) -> String {
        string(node)
    }

    func number(of node: Int) -> JSONValue {
        value(node)
    }
}

extension JSONValueDocument: QuickCheckDocument {
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
