import APITestJSON

// MARK: - Arrays

extension SchemaEvaluator {
    /// Evaluates a keyword on an array node, walking its elements (never listing them).
    mutating func evaluateArray(_ keyword: Keyword, _ instance: Node, _ annotations: inout Annotations) -> Bool {
        let document = self.document // a copy: the walks below call back into mutating methods
        switch keyword.check {
        case .maxItems(let limit):
            let count = document.elementCount(of: instance)
            if count <= limit { return true }
            fail(keyword.name, "must have at most \(limit) items, got \(count)")
            return false
        case .minItems(let limit):
            let count = document.elementCount(of: instance)
            if count >= limit { return true }
            fail(keyword.name, "must have at least \(limit) items, got \(count)")
            return false
        case .uniqueItems:
            guard let (first, second) = firstRepeatedElements(of: instance) else { return true }
            fail(keyword.name, "must not contain duplicates: items \(first) and \(second) are equal")
            return false
        case .prefixItems(let nodes):
            var valid = true
            var position = 0
            document.forEachElement(of: instance) { item in
                guard position < nodes.count else { return false }
                let token = String(position)
                if !applyToChild(nodes[position], item, instanceToken: .index(position), schemaToken: token) {
                    valid = false
                }
                position += 1
                return valid || recording
            }
            annotations.itemCount = max(annotations.itemCount, position)
            return valid
        case .items(let node, let start):
            var valid = true
            var position = 0
            document.forEachElement(of: instance) { item in
                defer { position += 1 }
                guard position >= start else { return true }
                if !applyOrRefuse(
                    node, item, instanceToken: .index(position), keyword: keyword.name,
                    refusal: "item \(position) is not allowed (at most \(start) items)")
                {
                    valid = false
                }
                return valid || recording
            }
            annotations.allItems = true
            return valid
        case .contains(let node, let minimum, let maximum):
            // The matching positions are kept only when `unevaluatedItems` needs them; otherwise they are counted.
            var matched: [Int] = []
            var matchCount = 0
            var position = 0
            let tracking = schema.tracksAnnotations
            document.forEachElement(of: instance) { item in
                let token = InstanceToken.index(position)
                if silently({ $0.applyToChild(node, item, instanceToken: token) }) {
                    matchCount += 1
                    if tracking { matched.append(position) }
                }
                position += 1
                return true
            }
            if tracking { annotations.itemIndices.formUnion(matched) }
            if matchCount < minimum {
                let name = minimum == 1 ? keyword.name : "minContains"
                schemaPath[schemaPath.count - 1] = name
                fail(
                    name,
                    "must contain at least \(minimum) matching item\(minimum == 1 ? "" : "s"), got \(matchCount)")
                schemaPath[schemaPath.count - 1] = keyword.name
                return false
            }
            if let maximum, matchCount > maximum {
                schemaPath[schemaPath.count - 1] = "maxContains"
                fail("maxContains", "must contain at most \(maximum) matching items, got \(matchCount)")
                schemaPath[schemaPath.count - 1] = keyword.name
                return false
            }
            return true
        case .unevaluatedItems(let node):
            var valid = true
            var position = 0
            document.forEachElement(of: instance) { item in
                defer { position += 1 }
                guard !annotations.isEvaluated(item: position) else { return true }
                if !applyOrRefuse(
                    node, item, instanceToken: .index(position), keyword: keyword.name,
                    refusal: "item \(position) is not allowed (unevaluated)")
                {
                    valid = false
                }
                return valid || recording
            }
            annotations.allItems = true
            return valid
        default:
            return evaluateLogic(keyword, instance, &annotations)
        }
    }

    /// The first pair of equal elements (the earliest second element, then its earliest equal): elements are
    /// hashed (``SchemaDocument/schemaHash(_:into:)``), sorted by hash, and only those sharing a hash compared.
    /// Costs two integers per element, whatever the elements hold.
    private func firstRepeatedElements(of instance: Node) -> (Int, Int)? {
        var hashed: [(hash: Int, position: Int)] = []
        document.forEachElement(of: instance) { item in
            var hasher = Hasher()
            document.schemaHash(item, into: &hasher)
            hashed.append((hasher.finalize(), hashed.count))
            return true
        }
        hashed.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.position < $1.position }
        // Runs of equal hashes, as position lists in ascending order.
        var runs: [[Int]] = []
        var start = 0
        while start < hashed.count {
            var end = start + 1
            while end < hashed.count && hashed[end].hash == hashed[start].hash { end += 1 }
            if end - start > 1 { runs.append(hashed[start..<end].map(\.position)) }
            start = end
        }
        guard !runs.isEmpty else { return nil }
        hashed = []
        let wanted = Set(runs.joined())
        var nodes: [Int: Node] = [:]
        var position = 0
        document.forEachElement(of: instance) { item in
            if wanted.contains(position) { nodes[position] = item }
            position += 1
            return true
        }
        var best: (Int, Int)?
        for run in runs {
            search: for (later, second) in run.enumerated().dropFirst() {
                if let best, best.1 < second { break }
                for first in run[..<later] where document.isEqual(nodes[first]!, nodes[second]!) {
                    if best.map({ second < $0.1 || (second == $0.1 && first < $0.0) }) ?? true {
                        best = (first, second)
                    }
                    break search
                }
            }
        }
        return best
    }
}

// MARK: - Objects

extension SchemaEvaluator {
    /// Evaluates a keyword on an object node, walking its members (never listing them).
    mutating func evaluateObject(_ keyword: Keyword, _ instance: Node, _ annotations: inout Annotations) -> Bool {
        let document = self.document // a copy: the walks below call back into mutating methods
        let tracking = schema.tracksAnnotations
        switch keyword.check {
        case .maxProperties(let limit):
            let count = document.memberCount(of: instance)
            if count <= limit { return true }
            fail(keyword.name, "must have at most \(limit) properties, got \(count)")
            return false
        case .minProperties(let limit):
            let count = document.memberCount(of: instance)
            if count >= limit { return true }
            fail(keyword.name, "must have at least \(limit) properties, got \(count)")
            return false
        case .required(let names):
            var valid = true
            for name in names where document.member(name, of: instance) == nil {
                fail(keyword.name, "missing required property \(JSONWriter.quoted(name))")
                valid = false
            }
            return valid
        case .annotatedRequired(let entries):
            var valid = true
            for entry in entries where document.member(entry.name, of: instance) == nil {
                if entry.annotations.contains(where: { requiredExemptions.contains($0) }) { continue }
                fail(keyword.name, "missing required property \(JSONWriter.quoted(entry.name))")
                valid = false
            }
            return valid
        case .dependentRequired(let pairs):
            var valid = true
            for (name, required) in pairs where document.member(name, of: instance) != nil {
                for other in required where document.member(other, of: instance) == nil {
                    fail(
                        keyword.name,
                        "property \(JSONWriter.quoted(other)) is required when \(JSONWriter.quoted(name)) is present")
                    valid = false
                }
            }
            return valid
        case .properties(let nodes):
            var valid = true
            document.forEachMember(of: instance) { name, _, value in
                guard let node = nodes[CodePointKey(name)] else { return true }
                if !applyToChild(node, value, instanceToken: .name(name), schemaToken: name) { valid = false }
                if tracking { annotations.properties.insert(CodePointKey(name)) }
                return valid || recording
            }
            return valid
        case .patternProperties(let pairs):
            var valid = true
            document.forEachMember(of: instance) { name, _, value in
                for (regex, node) in pairs where regex.matches(name) {
                    if !applyToChild(node, value, instanceToken: .name(name), schemaToken: regex.source) {
                        valid = false
                    }
                    if tracking { annotations.properties.insert(CodePointKey(name)) }
                }
                return valid || recording
            }
            return valid
        case .additionalProperties(let node, let names, let patterns):
            var valid = true
            document.forEachMember(of: instance) { name, _, value in
                if names.contains(CodePointKey(name)) || patterns.contains(where: { $0.matches(name) }) { return true }
                if !applyOrRefuse(
                    node, value, instanceToken: .name(name), keyword: keyword.name,
                    refusal: "property \(JSONWriter.quoted(name)) is not allowed")
                {
                    valid = false
                }
                if tracking { annotations.properties.insert(CodePointKey(name)) }
                return valid || recording
            }
            return valid
        case .propertyNames(let node):
            var valid = true
            document.forEachMember(of: instance) { name, nameNode, _ in
                let mark = errors.count
                if applyToChild(node, nameNode, instanceToken: .name(name)) { return true }
                valid = false
                // The failing value is the member's name, not its value: say so in each message.
                for index in mark..<errors.count {
                    errors[index].message = "property name \(JSONWriter.quoted(name)): " + errors[index].message
                }
                return recording
            }
            return valid
        case .dependentSchemas(let pairs):
            var valid = true
            for (name, node) in pairs where document.member(name, of: instance) != nil {
                schemaPath.append(name)
                if !apply(node, instance, &annotations) { valid = false }
                schemaPath.removeLast()
            }
            return valid
        case .unevaluatedProperties(let node):
            var valid = true
            document.forEachMember(of: instance) { name, _, value in
                guard !annotations.isEvaluated(property: name) else { return true }
                if !applyOrRefuse(
                    node, value, instanceToken: .name(name), keyword: keyword.name,
                    refusal: "property \(JSONWriter.quoted(name)) is not allowed (unevaluated)")
                {
                    valid = false
                }
                return valid || recording
            }
            annotations.allProperties = true
            return valid
        default:
            return evaluateLogic(keyword, instance, &annotations)
        }
    }
}
