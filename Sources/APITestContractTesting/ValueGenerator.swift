package import APITestJSON
package import APITestOpenAPI

/// Makes values of a document's schemas: random valid ones (``valid(_:_:)``), the simplest valid one
/// (``minimal(_:)``), and, in `ValueGenerator+Invalid.swift` and `ValueGenerator+Coverage.swift`, values that break
/// one named keyword and the boundary values of every keyword.
///
/// Every value is bounded: nesting stops at ``maximumDepth`` (a recursive schema gets its simplest value there),
/// strings at ``maximumLength`` characters, arrays at ``maximumItems`` items, so no schema makes it hang.
package struct ValueGenerator: Sendable {
    /// The document whose references schemas follow.
    package let description: OpenAPIDescription
    /// Whether values are request data: `readOnly` properties are left out.
    package var forRequests = true
    /// Which optional members a random object gets (see ``Fill``).
    package var fill = Fill.random

    /// Which optional members a random object gets, and whether a value may be `null` where a type is also allowed.
    package enum Fill: Sendable, Hashable {
        /// Each optional property half the time; `null` now and then where it is allowed.
        case random
        /// The required properties only (a resource as small as the document allows).
        case requiredOnly
        /// Every property (but `readOnly` ones), never `null` where another type is allowed, an alternative other
        /// than `null` (a resource as full as the document allows: an optional `anyOf` string-or-null is a string).
        case every
    }

    /// The deepest nesting generated.
    package static let maximumDepth = 5
    /// The longest string generated (a longer `minLength` is honoured up to ``absoluteLength``).
    package static let maximumLength = 24
    /// The longest string ever made, whatever `minLength` says.
    package static let absoluteLength = 4096
    /// The most items (or extra properties) generated.
    package static let maximumItems = 4

    /// A generator for `description`'s schemas.
    package init(description: OpenAPIDescription) {
        self.description = description
    }

    /// The view of `schema`.
    package func view(_ schema: DescribedSchema) -> SchemaView {
        SchemaView(schema, in: description)
    }

    // MARK: - Valid values

    /// A random value that `schema` should accept (its `pattern`, `not` and `oneOf` exclusivity are not
    /// promised: the contract's validator has the last word).
    package func valid(_ schema: DescribedSchema, _ random: inout FuzzRandom, depth: Int = 0) -> JSONValue {
        let view = view(schema)
        if depth >= Self.maximumDepth { return minimal(schema, depth: depth) }
        if let values = view.enumValues, !values.isEmpty { return random.pick(values) }
        if !view.examples.isEmpty, random.chance(1, in: 4) { return random.pick(view.examples) }
        if !view.alternatives.isEmpty {
            var choices = view.alternatives
            if fill == .every {
                let filled = choices.filter { self.view($0).types != ["null"] }
                if !filled.isEmpty { choices = filled }
            }
            let chosen = random.pick(choices)
            return merged(valid(chosen, &random, depth: depth + 1), into: view, &random, depth: depth)
        }
        if view.nullable, fill != .every, random.chance(1, in: 8) { return .null }
        var types = view.types ?? []
        if fill == .every, types.count > 1 { types.removeAll { $0 == "null" } }
        let type = types.isEmpty ? view.primaryType : random.pick(types)
        switch type {
        case "null": return .null
        case "boolean": return .bool(random.chance(1, in: 2))
        case "integer": return .integer(randomInteger(view, &random))
        case "number":
            return random.chance(1, in: 2)
                ? .integer(randomInteger(view, &random)) : .double(randomNumber(view, &random))
        case "array": return .array(randomItems(view, &random, depth: depth))
        case "object": return .object(randomObject(view, &random, depth: depth))
        default: return .string(randomString(view, &random))
        }
    }

    /// The value of a `oneOf`/`anyOf` alternative with the schema's own properties added (a schema that declares
    /// both).
    private func merged(
        _ value: JSONValue, into view: SchemaView, _ random: inout FuzzRandom, depth: Int
    )
        -> JSONValue
    {
        guard case .object(var object) = value, !view.properties.isEmpty else { return value }
        for (name, schema) in view.properties where object[name] == nil && view.required.contains(name) {
            object[name] = valid(schema, &random, depth: depth + 1)
        }
        return .object(object)
    }

    /// The simplest value `schema` should accept: its first example, enum member or default, else the least that
    /// keeps its keywords (required properties only, the fewest items, the shortest string).
    package func minimal(_ schema: DescribedSchema, depth: Int = 0) -> JSONValue {
        let view = view(schema)
        if let first = view.examples.first { return first }
        if let values = view.enumValues, let first = values.first { return first }
        if let first = view.alternatives.first, depth < Self.maximumDepth + 2 {
            return minimal(first, depth: depth + 1)
        }
        switch view.types?.first ?? view.primaryType {
        case "null": return .null
        case "boolean": return .bool(true)
        case "integer": return .integer(lowestInteger(view))
        case "number": return .integer(lowestInteger(view))
        case "array":
            let count = min(view.minItems ?? 0, Self.maximumItems)
            guard count > 0, let items = view.items else { return .array([]) }
            if depth >= Self.maximumDepth + 2 { return .array([]) }
            var values: [JSONValue] = []
            var random = FuzzRandom(seed: 1)
            for _ in 0..<count {
                values.append(
                    view.uniqueItems ? valid(items, &random, depth: depth + 1) : minimal(items, depth: depth + 1))
            }
            return .array(values)
        case "object":
            var object = JSONObject()
            if depth >= Self.maximumDepth + 2 { return .object(object) }
            for (name, schema) in view.properties where view.required.contains(name) {
                object[name] = minimal(schema, depth: depth + 1)
            }
            for name in view.required where object[name] == nil && !view.closed { object[name] = .string("x") }
            return .object(object)
        default:
            return .string(sampleString(view, length: max(view.minLength ?? 1, 1)))
        }
    }

    // MARK: - Numbers

    /// The lowest integer `view` allows, near zero when it has no lower bound.
    func lowestInteger(_ view: SchemaView) -> Int64 {
        let range = integerRange(view)
        var value = range.lowerBound <= 1 && range.upperBound >= 1 ? 1 : range.lowerBound
        if let step = view.multipleOf, step >= 1, step < 1e15 {
            let step = Int64(step)
            value = ((value + step - 1) / step) * step
        }
        return value
    }

    /// The integers `view` allows (its bounds, exclusive ones moved in), within ±2⁵³.
    func integerRange(_ view: SchemaView) -> ClosedRange<Int64> {
        let limit: Double = 9_007_199_254_740_991
        var low = -limit
        var high = limit
        if let minimum = view.minimum {
            low = max(low, view.exclusiveMinimum ? (minimum + 1).rounded(.down) : minimum.rounded(.up))
        }
        if let maximum = view.maximum {
            high = min(high, view.exclusiveMaximum ? (maximum - 1).rounded(.up) : maximum.rounded(.down))
        }
        // `int32` values fit in 32 bits (the validator does not assert formats: the generator keeps to them).
        if view.format == "int32" {
            low = max(low, Double(Int32.min))
            high = min(high, Double(Int32.max))
        }
        if low > high { return Int64(low)...Int64(low) }
        return Int64(low)...Int64(high)
    }

    private func randomInteger(_ view: SchemaView, _ random: inout FuzzRandom) -> Int64 {
        let range = integerRange(view)
        // Mostly small numbers near the lower bound, sometimes anywhere in the range.
        let value: Int64
        // Sizes servers tend to treat specially, a fifth of the time.
        let notable: [Int64] = [0, 1, 100, 255, 256, 1000, 1001, 1024, 10_000, 65_536, Int64(Int32.max)]
        let inRange = notable.filter(range.contains)
        if !inRange.isEmpty, random.chance(1, in: 5) {
            value = random.pick(inRange)
        } else if random.chance(3, in: 4) {
            let start = max(range.lowerBound, min(range.upperBound, -100))
            let end = min(range.upperBound, start &+ 1000)
            value = random.integer(in: start...max(start, end))
        } else {
            value = random.integer(in: range)
        }
        guard let step = view.multipleOf, step >= 1, step < 1e15 else { return value }
        let whole = Int64(step)
        var multiple = (value / whole) * whole
        if multiple < range.lowerBound { multiple += whole }
        return multiple > range.upperBound ? lowestInteger(view) : multiple
    }

    private func randomNumber(_ view: SchemaView, _ random: inout FuzzRandom) -> Double {
        var low = view.minimum ?? -1000
        var high = view.maximum ?? (low + 2000)
        if view.minimum == nil { low = high - 2000 }
        if low > high { swap(&low, &high) }
        var value = low + (high - low) * random.unit()
        if view.exclusiveMinimum, value <= low { value = low + (high - low) / 2 }
        if view.exclusiveMaximum, value >= high { value = low + (high - low) / 2 }
        if let step = view.multipleOf {
            value = (value / step).rounded(.down) * step
            if value < low || (view.exclusiveMinimum && value == low) { value += step }
        }
        return value
    }

    // MARK: - Strings

    private func randomString(_ view: SchemaView, _ random: inout FuzzRandom) -> String {
        if let format = view.format, let sample = FormatSamples.valid(format, &random) { return sample }
        if let pattern = view.pattern {
            if let sample = PatternSampler(pattern)?.sample(
                &random, minLength: view.minLength, maxLength: view.maxLength)
            {
                return sample
            }
            // A pattern outside the sampler's subset: a documented example, which should match it.
            if let example = view.examples.lazy.compactMap(\.stringValue).first { return example }
        }
        let low = view.minLength ?? 0
        let high = max(low, min(view.maxLength ?? (low + Self.maximumLength), low + Self.maximumLength))
        let length = min(Int(random.integer(in: Int64(low)...Int64(high))), Self.absoluteLength)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ .é☃")
        return String((0..<length).map { _ in random.pick(alphabet) })
    }

    /// A string for `view`: a sample of its format or its pattern when it has one (within its length bounds), else
    /// `length` characters.
    func sampleString(_ view: SchemaView, length: Int) -> String {
        if let format = view.format {
            var random = FuzzRandom(seed: 7)
            if let sample = FormatSamples.valid(format, &random) { return sample }
        }
        if let pattern = view.pattern, let sampler = PatternSampler(pattern) {
            var random = FuzzRandom(seed: 7)
            if let sample = sampler.sample(&random, minLength: view.minLength, maxLength: view.maxLength) {
                return sample
            }
        }
        return String(repeating: "a", count: min(max(length, 0), Self.absoluteLength))
    }

    // MARK: - Containers

    private func randomItems(_ view: SchemaView, _ random: inout FuzzRandom, depth: Int) -> [JSONValue] {
        let low = min(view.minItems ?? 0, Self.maximumItems)
        let high = max(low, min(view.maxItems ?? Self.maximumItems, Self.maximumItems))
        let count = Int(random.integer(in: Int64(low)...Int64(high)))
        guard let items = view.items else {
            return (0..<count).map { .integer(Int64($0)) }
        }
        var values: [JSONValue] = []
        var attempts = 0
        while values.count < count, attempts < count * 4 {
            attempts += 1
            let value = valid(items, &random, depth: depth + 1)
            if view.uniqueItems, values.contains(value) { continue }
            values.append(value)
        }
        return values
    }

    /// Whether an optional property is generated, by ``fill``.
    private func wanted(_ property: SchemaView, _ random: inout FuzzRandom) -> Bool {
        switch fill {
        case .random: random.chance(1, in: 2)
        case .requiredOnly: false
        case .every: !property.readOnly
        }
    }

    private func randomObject(_ view: SchemaView, _ random: inout FuzzRandom, depth: Int) -> JSONObject {
        var object = JSONObject()
        for (name, schema) in view.properties {
            let property = self.view(schema)
            if forRequests, property.readOnly, !view.required.contains(name) { continue }
            if view.required.contains(name) || wanted(property, &random) {
                object[name] = valid(schema, &random, depth: depth + 1)
            }
        }
        for name in view.required where object[name] == nil { object[name] = .string("x") }
        if let minimum = view.minProperties, object.count < minimum, !view.closed {
            for index in object.count..<min(minimum, Self.maximumItems * 4) { object["extra\(index)"] = .integer(1) }
        }
        return object
    }
}
