import APITestJSON

// MARK: - Keywords

extension SchemaEvaluator {
    /// Evaluates one keyword; the keyword's name is already on the schema path.
    mutating func evaluate(_ keyword: Keyword, _ instance: JSONValue, _ annotations: inout Annotations) -> Bool {
        switch keyword.check {
        case .ref(let target):
            return applyReference(target, instance, &annotations)
        case .dynamicRef(let target, let anchor):
            return applyReference(dynamicTarget(target, anchor: anchor), instance, &annotations)
        case .type(let names):
            if names.contains(where: { instance.matchesSchemaType($0) }) { return true }
            let expected = names.count == 1 ? names[0] : names.joined(separator: " or ")
            fail(keyword.name, "must be \(expected), got \(instance.schemaTypeName)")
            return false
        case .const(let expected):
            if instance.isSchemaEqual(to: expected) { return true }
            fail(keyword.name, "must be equal to \(expected.shortDescription), got \(instance.shortDescription)")
            return false
        case .enumeration(let values):
            if values.contains(where: { $0.isSchemaEqual(to: instance) }) { return true }
            let listed = values.prefix(8).map(\.shortDescription).joined(separator: ", ")
            fail(
                keyword.name,
                "must be one of [\(listed)\(values.count > 8 ? ", ..." : "")], got \(instance.shortDescription)")
            return false
        default:
            break
        }
        switch instance {
        case .integer, .double, .number: return evaluateNumber(keyword, instance)
        case .string(let string): return evaluateString(keyword, string)
        case .array(let items): return evaluateArray(keyword, items, &annotations)
        case .object(let object): return evaluateObject(keyword, object, &annotations)
        default: break
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

    private mutating func evaluateNumber(_ keyword: Keyword, _ instance: JSONValue) -> Bool {
        switch keyword.check {
        case .multipleOf(let divisor, let divisorValue):
            guard let value = instance.numberValue, value.isMultiple(of: divisor) else {
                fail(
                    keyword.name,
                    "must be a multiple of \(divisorValue.shortDescription), got \(instance.shortDescription)")
                return false
            }
            return true
        case .maximum(let limit, let exclusive):
            let order = Self.compare(instance, limit)
            if exclusive ? order < 0 : order <= 0 { return true }
            fail(
                keyword.name,
                "must be \(exclusive ? "<" : "<=") \(limit.shortDescription), got \(instance.shortDescription)")
            return false
        case .minimum(let limit, let exclusive):
            let order = Self.compare(instance, limit)
            if exclusive ? order > 0 : order >= 0 { return true }
            fail(
                keyword.name,
                "must be \(exclusive ? ">" : ">=") \(limit.shortDescription), got \(instance.shortDescription)")
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

    private mutating func evaluateString(_ keyword: Keyword, _ string: String) -> Bool {
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
            if regex.matches(string) { return true }
            fail(keyword.name, "must match the pattern \(JSONWriter.quoted(regex.source))")
            return false
        default:
            var annotations = Annotations()
            return evaluateLogic(keyword, .string(string), &annotations)
        }
    }

    // MARK: Arrays

    private mutating func evaluateArray(
        _ keyword: Keyword, _ items: [JSONValue], _ annotations: inout Annotations
    )
        -> Bool
    {
        switch keyword.check {
        case .maxItems(let limit):
            if items.count <= limit { return true }
            fail(keyword.name, "must have at most \(limit) items, got \(items.count)")
            return false
        case .minItems(let limit):
            if items.count >= limit { return true }
            fail(keyword.name, "must have at least \(limit) items, got \(items.count)")
            return false
        case .uniqueItems:
            // Buckets by hash (which is coarser than schema equality), then compares exactly.
            var buckets: [JSONValue: [Int]] = [:]
            for (index, item) in items.enumerated() {
                if let first = buckets[item]?.first(where: { items[$0].isSchemaEqual(to: item) }) {
                    fail(keyword.name, "must not contain duplicates: items \(first) and \(index) are equal")
                    return false
                }
                buckets[item, default: []].append(index)
            }
            return true
        case .prefixItems(let nodes):
            var valid = true
            for index in 0..<min(nodes.count, items.count) {
                let token = String(index)
                if !applyToChild(nodes[index], items[index], instanceToken: token, schemaToken: token) {
                    valid = false
                }
            }
            annotations.itemCount = max(annotations.itemCount, min(nodes.count, items.count))
            return valid
        case .items(let node, let start):
            var valid = true
            if start < items.count {
                for index in start..<items.count {
                    if node.boolean == false {
                        fail(
                            keyword.name, "item \(index) is not allowed (at most \(start) items)",
                            instanceToken: String(index))
                        valid = false
                    } else if !applyToChild(node, items[index], instanceToken: String(index)) {
                        valid = false
                    }
                }
            }
            annotations.allItems = true
            return valid
        case .contains(let node, let minimum, let maximum):
            var matched: [Int] = []
            for (index, item) in items.enumerated() {
                let valid = silently { $0.applyToChild(node, item, instanceToken: String(index)) }
                if valid { matched.append(index) }
            }
            if schema.tracksAnnotations { annotations.itemIndices.formUnion(matched) }
            if matched.count < minimum {
                let name = minimum == 1 ? keyword.name : "minContains"
                schemaPath[schemaPath.count - 1] = name
                fail(
                    name,
                    "must contain at least \(minimum) matching item\(minimum == 1 ? "" : "s"), got \(matched.count)")
                schemaPath[schemaPath.count - 1] = keyword.name
                return false
            }
            if let maximum, matched.count > maximum {
                schemaPath[schemaPath.count - 1] = "maxContains"
                fail("maxContains", "must contain at most \(maximum) matching items, got \(matched.count)")
                schemaPath[schemaPath.count - 1] = keyword.name
                return false
            }
            return true
        case .unevaluatedItems(let node):
            var valid = true
            for (index, item) in items.enumerated() where !annotations.isEvaluated(item: index) {
                if node.boolean == false {
                    fail(keyword.name, "item \(index) is not allowed (unevaluated)", instanceToken: String(index))
                    valid = false
                } else if !applyToChild(node, item, instanceToken: String(index)) {
                    valid = false
                }
            }
            annotations.allItems = true
            return valid
        default:
            return evaluateLogic(keyword, .array(items), &annotations)
        }
    }

    // MARK: Objects

    private mutating func evaluateObject(
        _ keyword: Keyword, _ object: JSONObject, _ annotations: inout Annotations
    ) -> Bool {
        let tracking = schema.tracksAnnotations
        switch keyword.check {
        case .maxProperties(let limit):
            if object.count <= limit { return true }
            fail(keyword.name, "must have at most \(limit) properties, got \(object.count)")
            return false
        case .minProperties(let limit):
            if object.count >= limit { return true }
            fail(keyword.name, "must have at least \(limit) properties, got \(object.count)")
            return false
        case .required(let names):
            var valid = true
            for name in names where object[name] == nil {
                fail(keyword.name, "missing required property \(JSONWriter.quoted(name))")
                valid = false
            }
            return valid
        case .dependentRequired(let pairs):
            var valid = true
            for (name, required) in pairs where object[name] != nil {
                for other in required where object[other] == nil {
                    fail(
                        keyword.name,
                        "property \(JSONWriter.quoted(other)) is required when \(JSONWriter.quoted(name)) is present")
                    valid = false
                }
            }
            return valid
        case .properties(let nodes):
            var valid = true
            for (name, value) in object {
                guard let node = nodes[name] else { continue }
                if !applyToChild(node, value, instanceToken: name, schemaToken: name) { valid = false }
                if tracking { annotations.properties.insert(name) }
            }
            return valid
        case .patternProperties(let pairs):
            var valid = true
            for (name, value) in object {
                for (regex, node) in pairs where regex.matches(name) {
                    if !applyToChild(node, value, instanceToken: name, schemaToken: regex.source) { valid = false }
                    if tracking { annotations.properties.insert(name) }
                }
            }
            return valid
        case .additionalProperties(let node, let names, let patterns):
            var valid = true
            for (name, value) in object {
                if names.contains(name) || patterns.contains(where: { $0.matches(name) }) { continue }
                if node.boolean == false {
                    fail(keyword.name, "property \(JSONWriter.quoted(name)) is not allowed", instanceToken: name)
                    valid = false
                } else if !applyToChild(node, value, instanceToken: name) {
                    valid = false
                }
                if tracking { annotations.properties.insert(name) }
            }
            return valid
        case .propertyNames(let node):
            var valid = true
            for (name, _) in object {
                let mark = errors.count
                if applyToChild(node, .string(name), instanceToken: name) { continue }
                valid = false
                // The failing value is the member's name, not its value: say so in each message.
                for index in mark..<errors.count {
                    errors[index].message = "property name \(JSONWriter.quoted(name)): " + errors[index].message
                }
            }
            return valid
        case .dependentSchemas(let pairs):
            var valid = true
            for (name, node) in pairs where object[name] != nil {
                schemaPath.append(name)
                if !apply(node, .object(object), &annotations) { valid = false }
                schemaPath.removeLast()
            }
            return valid
        case .unevaluatedProperties(let node):
            var valid = true
            for (name, value) in object where !annotations.isEvaluated(property: name) {
                if node.boolean == false {
                    fail(
                        keyword.name, "property \(JSONWriter.quoted(name)) is not allowed (unevaluated)",
                        instanceToken: name)
                    valid = false
                } else if !applyToChild(node, value, instanceToken: name) {
                    valid = false
                }
            }
            annotations.allProperties = true
            return valid
        default:
            return evaluateLogic(keyword, .object(object), &annotations)
        }
    }

    // MARK: Logic

    private mutating func evaluateLogic(
        _ keyword: Keyword, _ instance: JSONValue, _ annotations: inout Annotations
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
            }
            return valid
        case .anyOf(let nodes):
            let mark = errors.count
            var matched = false
            for (index, node) in nodes.enumerated() {
                schemaPath.append(String(index))
                if apply(node, instance, &annotations) { matched = true }
                schemaPath.removeLast()
                if matched && !schema.tracksAnnotations { break }
            }
            if matched {
                errors.removeSubrange(mark...)
                return true
            }
            let reasons = Array(errors[mark...])
            errors.removeSubrange(mark...)
            fail(keyword.name, "must match at least one schema in anyOf")
            errors += reasons
            return false
        case .oneOf(let nodes):
            let mark = errors.count
            var matches: [Int] = []
            var matchedAnnotations = Annotations()
            for (index, node) in nodes.enumerated() {
                schemaPath.append(String(index))
                var local = Annotations()
                if evaluate(node, instance, &local) {
                    matches.append(index)
                    matchedAnnotations = local
                }
                schemaPath.removeLast()
            }
            let reasons = Array(errors[mark...])
            errors.removeSubrange(mark...)
            if matches.count == 1 {
                if schema.tracksAnnotations { annotations.merge(matchedAnnotations) }
                return true
            }
            if matches.isEmpty {
                fail(keyword.name, "must match exactly one schema in oneOf, matched none")
                errors += reasons
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
}
