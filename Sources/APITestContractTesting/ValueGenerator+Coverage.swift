package import APITestJSON
import APITestJSONSchema
package import APITestOpenAPI

/// A value made to exercise one keyword of a schema: whether the schema should accept it, and which keyword it
/// stands at (or breaks).
package struct BoundaryValue: Sendable, Hashable {
    /// The value; nil for "left out" (a missing required property is made by the object's boundary instead).
    package var value: JSONValue
    /// The keyword exercised (`maximum`, `enum`, `required`, `type`).
    package var keyword: String
    /// Where in the value (a JSON pointer; empty for the value itself).
    package var pointer: String
    /// Whether the schema should accept it; nil when the validator does not judge it (a `format`, which JSON Schema
    /// 2020-12 only annotates).
    package var isValid: Bool?

    /// A boundary value.
    package init(_ value: JSONValue, keyword: String, pointer: String = "", isValid: Bool?) {
        self.value = value
        self.keyword = keyword
        self.pointer = pointer
        self.isValid = isValid
    }
}

// MARK: - Coverage

extension ValueGenerator {
    /// The boundary values of every keyword of `schema`, valid and invalid, in a fixed order: `enum` members and a
    /// non-member; `minimum`/`maximum` and one past them (the exclusive forms at the bound); `minLength`/`maxLength`
    /// and one past them; `format` samples and a malformed one; `minItems`/`maxItems`; each required property left
    /// out, an undeclared property where `additionalProperties` is false; `null` where allowed and where not; a value
    /// of each other type. Properties are exercised the same way, two levels deep.
    package func boundaries(_ schema: DescribedSchema, depth: Int = 0) -> [BoundaryValue] {
        let view = view(schema)
        var values: [BoundaryValue] = []
        let base = minimal(schema)
        if let members = view.enumValues, !members.isEmpty {
            values += members.map { BoundaryValue($0, keyword: "enum", isValid: true) }
            values.append(BoundaryValue(Self.nonMember(of: members), keyword: "enum", isValid: false))
        }
        let type = view.types?.first ?? view.primaryType
        if view.enumValues == nil {
            switch type {
            case "integer", "number": values += numberBoundaries(view, integer: type == "integer")
            case "string": values += stringBoundaries(view)
            case "array": values += arrayBoundaries(view, depth: depth)
            case "object": values += objectBoundaries(view, base: base, depth: depth)
            default: break
            }
        }
        if view.types != nil {
            values.append(BoundaryValue(.null, keyword: view.nullable ? "nullable" : "type", isValid: view.nullable))
            for other in Self.otherTypes(than: view.types ?? [], nullable: view.nullable) {
                values.append(BoundaryValue(other, keyword: "type", isValid: false))
            }
        }
        return values
    }

    /// A value of each JSON type `types` does not allow (an integer counts as a number).
    static func otherTypes(than types: [String], nullable: Bool) -> [JSONValue] {
        var values: [JSONValue] = []
        if !types.contains("string") { values.append(.string("fuzz")) }
        if !types.contains("integer") && !types.contains("number") { values.append(.integer(42)) }
        if !types.contains("boolean") { values.append(.bool(true)) }
        if !types.contains("array") { values.append(.array([])) }
        if !types.contains("object") { values.append(.object(JSONObject())) }
        return values
    }

    /// A value equal to none of `members`, of the members' type where possible.
    static func nonMember(of members: [JSONValue]) -> JSONValue {
        if members.allSatisfy({ $0.stringValue != nil }) {
            var candidate = "not-a-member"
            while members.contains(.string(candidate)) { candidate += "-" }
            return .string(candidate)
        }
        if members.allSatisfy({ $0.doubleValue != nil }) {
            let highest = members.compactMap(\.doubleValue).max() ?? 0
            return highest < 1e15 ? .integer(Int64(highest) + 1) : .string("not-a-member")
        }
        return .string("not-a-member")
    }

    private func numberBoundaries(_ view: SchemaView, integer: Bool) -> [BoundaryValue] {
        var values: [BoundaryValue] = []
        func number(_ value: Double) -> JSONValue {
            value == value.rounded() && abs(value) < 9e15 ? .integer(Int64(value)) : .double(value)
        }
        let step: Double = integer ? 1 : (view.multipleOf ?? 1)
        if let minimum = view.minimum {
            let keyword = view.exclusiveMinimum ? "exclusiveMinimum" : "minimum"
            if view.exclusiveMinimum {
                values.append(BoundaryValue(number(minimum), keyword: keyword, isValid: false))
                values.append(BoundaryValue(number(minimum + step), keyword: keyword, isValid: true))
            } else {
                values.append(BoundaryValue(number(minimum), keyword: keyword, isValid: true))
                values.append(BoundaryValue(number(minimum - step), keyword: keyword, isValid: false))
            }
        }
        if let maximum = view.maximum {
            let keyword = view.exclusiveMaximum ? "exclusiveMaximum" : "maximum"
            if view.exclusiveMaximum {
                values.append(BoundaryValue(number(maximum), keyword: keyword, isValid: false))
                values.append(BoundaryValue(number(maximum - step), keyword: keyword, isValid: true))
            } else {
                values.append(BoundaryValue(number(maximum), keyword: keyword, isValid: true))
                values.append(BoundaryValue(number(maximum + step), keyword: keyword, isValid: false))
            }
        }
        if integer, view.maximum == nil, view.multipleOf == nil {
            // Large values, and past 32 bits (a format the validator does not judge).
            let range = integerRange(view)
            for large: Int64 in [1001, 65_536, Int64(Int32.max)] where range.contains(large) {
                values.append(BoundaryValue(.integer(large), keyword: "maximum", isValid: true))
            }
            values.append(
                BoundaryValue(
                    .integer(Int64(Int32.max) + 1), keyword: view.format == "int32" ? "format" : "maximum",
                    isValid: view.format == "int32" ? nil : true))
        }
        if integer, view.minimum == nil, view.maximum == nil, view.multipleOf == nil {
            values.append(BoundaryValue(.integer(0), keyword: "type", isValid: true))
            values.append(BoundaryValue(.integer(-1), keyword: "type", isValid: true))
        }
        if integer {
            values.append(BoundaryValue(.double(Double(lowestInteger(view)) + 0.5), keyword: "type", isValid: false))
        }
        if let multiple = view.multipleOf, multiple >= 1 {
            let low = Double(lowestInteger(view))
            values.append(
                BoundaryValue(number(low + multiple / 2 + (integer ? 0 : 0.25)), keyword: "multipleOf", isValid: false))
        }
        return values.filter { $0.isValid != true || keeps($0.value, view) }
    }

    /// Whether a number meant to be valid keeps `view`'s other bounds (a minimum at the maximum's place, say).
    private func keeps(_ value: JSONValue, _ view: SchemaView) -> Bool {
        guard let number = value.doubleValue else { return true }
        if let minimum = view.minimum, number < minimum || (view.exclusiveMinimum && number == minimum) { return false }
        if let maximum = view.maximum, number > maximum || (view.exclusiveMaximum && number == maximum) { return false }
        if let step = view.multipleOf, (number / step).rounded() * step != number { return false }
        return true
    }

    private func stringBoundaries(_ view: SchemaView) -> [BoundaryValue] {
        var values: [BoundaryValue] = []
        let filler = view.format == nil && view.pattern == nil
        if let minimum = view.minLength {
            if filler {
                values.append(
                    BoundaryValue(.string(sampleString(view, length: minimum)), keyword: "minLength", isValid: true))
            }
            if minimum > 0 {
                values.append(
                    BoundaryValue(
                        .string(String(repeating: "a", count: min(minimum - 1, Self.absoluteLength))),
                        keyword: "minLength", isValid: false))
            }
        }
        if let maximum = view.maxLength, maximum < Self.absoluteLength {
            if filler {
                values.append(
                    BoundaryValue(.string(sampleString(view, length: maximum)), keyword: "maxLength", isValid: true))
            }
            values.append(
                BoundaryValue(.string(String(repeating: "a", count: maximum + 1)), keyword: "maxLength", isValid: false)
            )
        }
        if let pattern = view.pattern, let sampler = PatternSampler(pattern) {
            var random = FuzzRandom(seed: 13)
            if let sample = sampler.sample(&random, minLength: view.minLength, maxLength: view.maxLength) {
                values.append(BoundaryValue(.string(sample), keyword: "pattern", isValid: true))
            }
            // The contract says whether it is broken (an unanchored pattern may match inside it).
            values.append(BoundaryValue(.string("~"), keyword: "pattern", isValid: false))
        }
        if let format = view.format {
            var random = FuzzRandom(seed: 11)
            if let sample = FormatSamples.valid(format, &random) {
                values.append(BoundaryValue(.string(sample), keyword: "format", isValid: true))
            }
            if let bad = FormatSamples.invalid(format) {
                values.append(BoundaryValue(.string(bad), keyword: "format", isValid: nil))
            }
        }
        if view.minLength == nil, filler {
            values.append(BoundaryValue(.string(""), keyword: "minLength", isValid: true))
        }
        return values
    }

    private func arrayBoundaries(_ view: SchemaView, depth: Int) -> [BoundaryValue] {
        var values: [BoundaryValue] = []
        let item: JSONValue = view.items.map { minimal($0, depth: depth + 1) } ?? .integer(1)
        func items(_ count: Int) -> JSONValue {
            guard view.uniqueItems, let schema = view.items else { return .array(Array(repeating: item, count: count)) }
            var random = FuzzRandom(seed: 3)
            var list: [JSONValue] = []
            var attempts = 0
            while list.count < count, attempts < count * 8 {
                attempts += 1
                let value = valid(schema, &random, depth: depth + 1)
                if !list.contains(value) { list.append(value) }
            }
            return .array(list)
        }
        if let minimum = view.minItems, minimum <= Self.maximumItems * 4 {
            values.append(BoundaryValue(items(minimum), keyword: "minItems", isValid: true))
            if minimum > 0 { values.append(BoundaryValue(items(minimum - 1), keyword: "minItems", isValid: false)) }
        }
        if let maximum = view.maxItems, maximum <= Self.maximumItems * 4 {
            values.append(BoundaryValue(items(maximum), keyword: "maxItems", isValid: true))
            values.append(BoundaryValue(items(maximum + 1), keyword: "maxItems", isValid: false))
        }
        if view.uniqueItems {
            values.append(BoundaryValue(.array([item, item]), keyword: "uniqueItems", isValid: false))
        }
        if depth < 2, let schema = view.items {
            let count = max(view.minItems ?? 1, 1)
            for inner in boundaries(schema, depth: depth + 1) where inner.isValid == false {
                var list = Array(repeating: item, count: min(count, Self.maximumItems))
                list[0] = inner.value
                values.append(
                    BoundaryValue(.array(list), keyword: inner.keyword, pointer: "/0" + inner.pointer, isValid: false))
            }
        }
        return values
    }

    private func objectBoundaries(_ view: SchemaView, base: JSONValue, depth: Int) -> [BoundaryValue] {
        guard case .object(let minimal) = base else { return [] }
        var values: [BoundaryValue] = []
        // Every property present, then each required one left out.
        var full = minimal
        for (name, schema) in view.properties where full[name] == nil {
            if forRequests, self.view(schema).readOnly { continue }
            full[name] = self.minimal(schema, depth: depth + 1)
        }
        if full != minimal { values.append(BoundaryValue(.object(full), keyword: "properties", isValid: true)) }
        for name in view.required where minimal[name] != nil {
            var without = minimal
            without[name] = nil
            values.append(
                BoundaryValue(
                    .object(without), keyword: "required", pointer: "/" + JSONPointer.escape(name), isValid: false))
        }
        if view.closed {
            var extra = minimal
            var key = "undeclared"
            while extra[key] != nil { key += "_" }
            extra[key] = .integer(1)
            values.append(
                BoundaryValue(.object(extra), keyword: "additionalProperties", pointer: "/" + key, isValid: false))
        }
        guard depth < 2 else { return values }
        for (name, schema) in view.properties {
            if forRequests, self.view(schema).readOnly { continue }
            for inner in boundaries(schema, depth: depth + 1) {
                var changed = minimal
                changed[name] = inner.value
                values.append(
                    BoundaryValue(
                        .object(changed), keyword: inner.keyword,
                        pointer: "/" + JSONPointer.escape(name) + inner.pointer,
                        isValid: inner.isValid))
            }
        }
        return values
    }
}
