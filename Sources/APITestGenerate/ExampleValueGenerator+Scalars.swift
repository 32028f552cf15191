import APITestJSON

// MARK: - Numbers and strings

extension ExampleValueGenerator {
    /// The largest magnitude the generator writes as a number (integers stay exact in a double up to 2^53).
    static let largestNumber = 9_007_199_254_740_992.0

    /// Values for string formats, valid for the format as JSON Schema and OpenAPI define it.
    static let formatValues: [String: String] = [
        "date": "2025-01-01",
        "date-time": "2025-01-01T00:00:00Z",
        "time": "00:00:00Z",
        "duration": "P1D",
        "email": "user@example.com",
        "idn-email": "user@example.com",
        "hostname": "example.com",
        "idn-hostname": "example.com",
        "ipv4": "192.0.2.1",
        "ipv6": "2001:db8::1",
        "uri": "https://example.com/",
        "iri": "https://example.com/",
        "uri-reference": "https://example.com/",
        "iri-reference": "https://example.com/",
        "url": "https://example.com/",
        "uri-template": "https://example.com/{id}",
        "uuid": "00000000-0000-4000-8000-000000000000",
        "json-pointer": "/a",
        "relative-json-pointer": "0",
        "regex": "^a$",
        "byte": "c3RyaW5n",
        "int32": "1",
        "int64": "1",
        "integer": "1",
        "number": "1",
        "double": "1",
        "float": "1",
        "decimal": "1",
    ]

    /// An integer within the bounds and a multiple of every `multipleOf`: 1 when it is allowed, else the bound
    /// nearest it.
    func integer(for facts: SchemaFacts) throws(GenerationFailure) -> JSONValue {
        var low = -Self.largestNumber
        var high = Self.largestNumber
        if let minimum = facts.minimum { low = max(low, minimum.rounded(.up)) }
        if let exclusive = facts.exclusiveMinimum { low = max(low, exclusive.rounded(.down) + 1) }
        if let maximum = facts.maximum { high = min(high, maximum.rounded(.down)) }
        if let exclusive = facts.exclusiveMaximum { high = min(high, exclusive.rounded(.up) - 1) }
        guard low <= high else { throw GenerationFailure(reason: "no integer lies within the schema's bounds") }
        var candidate = min(max(1, low), high)
        if !facts.multiples.isEmpty {
            guard let step = Self.commonIntegerMultiple(facts.multiples) else {
                throw GenerationFailure(reason: "the schema's multipleOf values have no simple integer multiple")
            }
            candidate = (candidate / step).rounded(.up) * step
            if candidate > high { candidate = (high / step).rounded(.down) * step }
            guard candidate >= low, candidate <= high else {
                throw GenerationFailure(reason: "no multiple of \(Self.text(step)) lies within the schema's bounds")
            }
        }
        return .integer(Int64(candidate))
    }

    /// A number within the bounds and a multiple of every `multipleOf`: 1 when it is allowed, else a value near
    /// the bounds.
    func number(for facts: SchemaFacts) throws(GenerationFailure) -> JSONValue {
        let low = max(facts.minimum ?? -.infinity, facts.exclusiveMinimum ?? -.infinity)
        let high = min(facts.maximum ?? .infinity, facts.exclusiveMaximum ?? .infinity)
        let lowIsExclusive = facts.exclusiveMinimum.map { $0 >= (facts.minimum ?? -.infinity) } ?? false
        let highIsExclusive = facts.exclusiveMaximum.map { $0 <= (facts.maximum ?? .infinity) } ?? false
        func allowed(_ value: Double) -> Bool {
            (lowIsExclusive ? value > low : value >= low) && (highIsExclusive ? value < high : value <= high)
        }
        if let step = facts.multiples.first, facts.multiples.count == 1 {
            // Multiples of a decimal step are rounded to its decimals: 3 × 0.1 is written 0.3, not 0.30000000000000004.
            let scale = Self.decimalScale(of: step)
            func multiple(_ count: Double) -> Double { (count * step * scale).rounded() / scale }
            var candidate = low.isFinite ? multiple((low / step).rounded(.up)) : step
            if !allowed(candidate) { candidate = multiple((candidate / step).rounded() + 1) }
            if !allowed(candidate), high.isFinite { candidate = multiple((high / step).rounded(.down)) }
            if !allowed(candidate), high.isFinite { candidate = multiple((candidate / step).rounded() - 1) }
            guard allowed(candidate), abs(candidate) <= Self.largestNumber else {
                throw GenerationFailure(reason: "no multiple of \(Self.text(step)) lies within the schema's bounds")
            }
            return Self.numberValue(candidate)
        }
        if !facts.multiples.isEmpty {
            return try integer(for: facts)
        }
        var candidate = 1.0
        if !allowed(candidate) {
            if low.isFinite {
                candidate = lowIsExclusive ? (high.isFinite ? (low + high) / 2 : low + 1) : low
            } else {
                candidate = highIsExclusive ? high - 1 : high
            }
        }
        guard allowed(candidate), candidate.isFinite, abs(candidate) <= Self.largestNumber else {
            throw GenerationFailure(reason: "no number lies within the schema's bounds")
        }
        return Self.numberValue(candidate)
    }

    /// A string: a simple pattern's shortest match, else the format's value, else `string` cut or padded to the
    /// length bounds.
    func string(for facts: SchemaFacts) throws(GenerationFailure) -> JSONValue {
        let minimum = facts.minLength ?? 0
        let maximum = facts.maxLength ?? Int.max
        guard minimum <= maximum else {
            throw GenerationFailure(reason: "the schema's minLength is above its maxLength")
        }
        if let pattern = facts.patterns.first {
            guard let text = RegexExample.match(pattern, minimumLength: minimum, maximumLength: maximum) else {
                throw GenerationFailure(reason: "the pattern '\(pattern)' is beyond what the generator writes")
            }
            return .string(text)
        }
        if let format = facts.format, let text = Self.formatValues[format] { return .string(text) }
        let length = max(minimum, min(6, maximum))
        guard length <= 4096 else { throw GenerationFailure(reason: "the schema's minLength is over 4096") }
        let text = length <= 6 ? String("string".prefix(length)) : "string" + String(repeating: "s", count: length - 6)
        return .string(text)
    }

    // MARK: - Helpers

    /// 10 to the number of decimals `step` is written with (`0.25` → 100); 1 for whole numbers and exponent forms.
    private static func decimalScale(of step: Double) -> Double {
        let text = step.description
        guard !text.contains("e"), let dot = text.firstIndex(of: ".") else { return 1 }
        let decimals = text[text.index(after: dot)...].count
        return decimals > 15 ? 1 : (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    }

    /// The least common multiple of `multiples` when they are all whole numbers (and it stays small); nil otherwise.
    private static func commonIntegerMultiple(_ multiples: [Double]) -> Double? {
        var result = 1.0
        for multiple in multiples {
            guard multiple == multiple.rounded(), multiple >= 1, multiple <= largestNumber else { return nil }
            var (a, b) = (result, multiple)
            while b != 0 { (a, b) = (b, a.truncatingRemainder(dividingBy: b)) }
            result = result / a * multiple
            guard result <= largestNumber else { return nil }
        }
        return result
    }

    /// `value` as JSON: an integer when it is a whole number, else a double.
    private static func numberValue(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) <= largestNumber { return .integer(Int64(value)) }
        return .double(value)
    }

    /// A number as text for messages.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) <= largestNumber ? String(Int64(value)) : String(value)
    }
}
