import APITestJSON

// MARK: - Keywords

extension SchemaEvaluator {
    /// Evaluates one keyword on `instance`, whose shape is `shape`; the keyword's name is already on the schema
    /// path.
    mutating func evaluate(
        _ keyword: Keyword, _ instance: Node, _ shape: SchemaShape, _ annotations: inout Annotations
    ) -> Bool {
        switch keyword.check {
        case .ref(let target):
            return applyReference(target, instance, &annotations)
        case .dynamicRef(let target, let anchor):
            return applyReference(dynamicTarget(target, anchor: anchor), instance, &annotations)
        case .type(let names):
            if names.contains(where: { Document.matches(shape, type: $0) }) { return true }
            let expected = names.count == 1 ? names[0] : names.joined(separator: " or ")
            fail(keyword.name, "must be \(expected), got \(Document.typeName(shape))")
            return false
        case .const(let expected):
            if document.isEqual(instance, to: expected) { return true }
            if recording {
                let got = document.shortDescription(instance)
                fail(keyword.name, "must be equal to \(expected.shortDescription), got \(got)")
            }
            return false
        case .enumeration(let values):
            if values.contains(where: { document.isEqual(instance, to: $0) }) { return true }
            if recording {
                let listed = values.prefix(8).map(\.shortDescription).joined(separator: ", ")
                let got = document.shortDescription(instance)
                fail(keyword.name, "must be one of [\(listed)\(values.count > 8 ? ", ..." : "")], got \(got)")
            }
            return false
        default:
            break
        }
        switch shape {
        case .scalar(let scalar):
            switch scalar {
            case .integer, .double, .number: return evaluateNumber(keyword, instance, scalar)
            case .string(let string): return evaluateString(keyword, instance, string)
            default: break
            }
        case .array: return evaluateArray(keyword, instance, &annotations)
        case .object: return evaluateObject(keyword, instance, &annotations)
        }
        return evaluateLogic(keyword, instance, &annotations)
    }

    private func dynamicTarget(_ target: SchemaNode, anchor: String?) -> SchemaNode {
        guard let anchor else { return target }
        for resource in scope {
            if let node = schema.dynamicAnchors[resource]?[anchor] { return node }
        }
        return target
    }

    // MARK: Numbers

    private mutating func evaluateNumber(_ keyword: Keyword, _ instance: Node, _ number: JSONValue) -> Bool {
        switch keyword.check {
        case .multipleOf(let divisor, let divisorValue):
            guard let value = number.numberValue, value.isMultiple(of: divisor) else {
                fail(
                    keyword.name,
                    "must be a multiple of \(divisorValue.shortDescription), got \(number.shortDescription)")
                return false
            }
            return true
        case .maximum(let limit, let exclusive):
            let order = Self.compare(number, limit)
            if exclusive ? order < 0 : order <= 0 { return true }
            fail(
                keyword.name,
                "must be \(exclusive ? "<" : "<=") \(limit.shortDescription), got \(number.shortDescription)")
            return false
        case .minimum(let limit, let exclusive):
            let order = Self.compare(number, limit)
            if exclusive ? order > 0 : order >= 0 { return true }
            fail(
                keyword.name,
                "must be \(exclusive ? ">" : ">=") \(limit.shortDescription), got \(number.shortDescription)")
            return false
        default:
            var annotations = Annotations()
            return evaluateLogic(keyword, instance, &annotations)
        }
    }

    /// Compares two JSON numbers exactly by their decimal values (see `JSONValue.numericOrder`).
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        JSONValue.numericOrder(lhs, rhs) ?? 0
    }

    // MARK: Strings

    private mutating func evaluateString(_ keyword: Keyword, _ instance: Node, _ string: String) -> Bool {
        switch keyword.check {
        case .maxLength(let limit):
            let length = string.unicodeScalars.count
            if length <= limit { return true }
            fail(keyword.name, "must be at most \(limit) characters long, got \(length)")
            return false
        case .minLength(let limit):
            let length = string.unicodeScalars.count
            if length >= limit { return true }
            fail(keyword.name, "must be at least \(limit) characters long, got \(length)")
            return false
        case .pattern(let regex):
            do {
                if try regex.matchesOrInterrupts(string) { return true }
            } catch {
                interruption = .cancelled
                return false
            }
            fail(keyword.name, "must match the pattern \(JSONWriter.quoted(regex.source))")
            return false
        default:
            var annotations = Annotations()
            return evaluateLogic(keyword, instance, &annotations)
        }
    }

    // MARK: Logic

    /// Evaluates the keywords that apply to every instance type (`allOf`, `anyOf`, `oneOf`, `not`,
    /// `if`/`then`/`else`); any other keyword does not apply and holds.
    mutating func evaluateLogic(
        _ keyword: Keyword, _ instance: Node, _ annotations: inout Annotations
    )
        -> Bool
    {
        switch keyword.check {
        case .allOf(let nodes):
            var valid = true
            for (index, node) in nodes.enumerated() {
                schemaPath.append(String(index))
                if !apply(node, instance, &annotations) { valid = false }
                schemaPath.removeLast()
                if !valid && !recording { break }
            }
            return valid
        case .anyOf(let nodes):
            // The branches' failures matter only when none matches: they are recorded in a second pass then. The
            // first pass stops each branch at its first failure, so the second pass stays cheap at every depth.
            var matched = false
            _ = silently { evaluator in
                for (index, node) in nodes.enumerated() {
                    evaluator.schemaPath.append(String(index))
                    if evaluator.apply(node, instance, &annotations) { matched = true }
                    evaluator.schemaPath.removeLast()
                    if matched && !evaluator.schema.tracksAnnotations { break }
                }
                return matched
            }
            if matched { return true }
            guard recording else { return false }
            fail(keyword.name, "must match at least one schema in anyOf")
            recordBranchFailures(nodes, instance)
            return false
        case .oneOf(let nodes):
            var matches: [Int] = []
            var matchedAnnotations = Annotations()
            _ = silently { evaluator in
                for (index, node) in nodes.enumerated() {
                    evaluator.schemaPath.append(String(index))
                    var local = Annotations()
                    if evaluator.evaluate(node, instance, &local) {
                        matches.append(index)
                        matchedAnnotations = local
                    }
                    evaluator.schemaPath.removeLast()
                }
                return true
            }
            if matches.count == 1 {
                if schema.tracksAnnotations { annotations.merge(matchedAnnotations) }
                return true
            }
            if matches.isEmpty {
                fail(keyword.name, "must match exactly one schema in oneOf, matched none")
                if recording { recordBranchFailures(nodes, instance) }
            } else {
                let list = matches.map(String.init).joined(separator: ", ")
                fail(keyword.name, "must match exactly one schema in oneOf, matched \(matches.count) (\(list))")
            }
            return false
        case .not(let node):
            var ignored = Annotations()
            let matched = silently { $0.evaluate(node, instance, &ignored) }
            if !matched { return true }
            fail(keyword.name, "must not match the schema in not")
            return false
        case .conditional(let condition, let then, let otherwise):
            var local = Annotations()
            let holds = silently { $0.evaluate(condition, instance, &local) }
            if holds && schema.tracksAnnotations { annotations.merge(local) }
            guard let branch = holds ? then : otherwise else { return true }
            schemaPath[schemaPath.count - 1] = holds ? "then" : "else"
            let valid = apply(branch, instance, &annotations)
            schemaPath[schemaPath.count - 1] = keyword.name
            return valid
        default:
            // A keyword that does not apply to this instance type.
            return true
        }
    }

    /// Evaluates each branch of an `anyOf` or `oneOf` that matched none, recording why each one fails.
    private mutating func recordBranchFailures(_ nodes: [SchemaNode], _ instance: Node) {
        for (index, node) in nodes.enumerated() {
            schemaPath.append(String(index))
            var ignored = Annotations()
            _ = evaluate(node, instance, &ignored)
            schemaPath.removeLast()
        }
    }
}
