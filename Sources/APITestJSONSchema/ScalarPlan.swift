import APITestJSON

/// A schema node whose keywords only constrain a scalar (`type`, `minLength`, `maxLength`, `pattern`, an `enum` or
/// `const` of strings, `minimum` and `maximum` with integer limits) made into one check, for ``SchemaQuickCheck``:
/// a value written as plain ASCII text or a plain integer is decided at once over its bytes, without walking the
/// keywords one by one (a response's `id`, `name` and `roles` items are such nodes).
///
/// Made once per schema node when it compiles (``SchemaNode/scalarPlan``). A value the plan cannot decide that way
/// (a string with an escape or beyond ASCII, a number that is not a plain integer, a value an `enum` is asked about
/// that is not a string) goes through the keywords as before.
final class ScalarPlan: Sendable {
    /// The kinds `type` allows, one bit per ``JSONTape/Kind`` raw value; every kind without `type`.
    let kinds: UInt8
    /// Whether `type` allows integers but not every number.
    let integersOnly: Bool
    /// `minLength` and `maxLength`.
    let minimumLength: Int?
    let maximumLength: Int?
    /// `pattern`.
    let pattern: SchemaRegex?
    /// The strings of `enum` or `const`, as UTF-8 bytes.
    let strings: [[UInt8]]?
    /// `minimum` (or `exclusiveMinimum`) and `maximum` (or `exclusiveMaximum`), integer limits.
    let minimum: (limit: Int64, exclusive: Bool)?
    let maximum: (limit: Int64, exclusive: Bool)?

    /// The plan of a node's `keywords`; nil when one of them is another keyword, comes twice, or has a limit or a
    /// value the plan does not hold.
    init?(keywords: [Keyword]) {
        guard !keywords.isEmpty else { return nil }
        var kinds: UInt8?
        var integersOnly = false
        var minimumLength: Int?
        var maximumLength: Int?
        var pattern: SchemaRegex?
        var strings: [[UInt8]]?
        var minimum: (limit: Int64, exclusive: Bool)?
        var maximum: (limit: Int64, exclusive: Bool)?
        for keyword in keywords {
            switch keyword.check {
            case .type(let names):
                guard kinds == nil, let allowed = Self.kinds(names) else { return nil }
                kinds = allowed.kinds
                integersOnly = allowed.integersOnly
            case .minLength(let limit):
                guard minimumLength == nil else { return nil }
                minimumLength = limit
            case .maxLength(let limit):
                guard maximumLength == nil else { return nil }
                maximumLength = limit
            case .pattern(let regex):
                guard pattern == nil, regex.hasASCIIProgram else { return nil }
                pattern = regex
            case .enumeration(let values):
                guard strings == nil else { return nil }
                var list: [[UInt8]] = []
                for value in values {
                    guard case .string(let text) = value else { return nil }
                    list.append(Array(text.utf8))
                }
                strings = list
            case .const(let value):
                guard strings == nil, case .string(let text) = value else { return nil }
                strings = [Array(text.utf8)]
            case .minimum(let limit, let exclusive):
                guard minimum == nil, case .integer(let bound) = limit else { return nil }
                minimum = (bound, exclusive)
            case .maximum(let limit, let exclusive):
                guard maximum == nil, case .integer(let bound) = limit else { return nil }
                maximum = (bound, exclusive)
            default:
                return nil
            }
        }
        self.kinds = kinds ?? 0x7F
        self.integersOnly = integersOnly
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.pattern = pattern
        self.strings = strings
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The kinds `type`'s names allow; nil for a name that is no JSON Schema type.
    private static func kinds(_ names: [String]) -> (kinds: UInt8, integersOnly: Bool)? {
        var kinds: UInt8 = 0
        var numbers = false
        var integers = false
        for name in names {
            switch name {
            case "null": kinds |= Self.bit(.null)
            case "boolean": kinds |= Self.bit(.true) | Self.bit(.false)
            case "string": kinds |= Self.bit(.string)
            case "array": kinds |= Self.bit(.array)
            case "object": kinds |= Self.bit(.object)
            case "number": numbers = true
            case "integer": integers = true
            default: return nil
            }
        }
        if numbers || integers { kinds |= Self.bit(.number) }
        return (kinds, integers && !numbers)
    }

    /// The bit of `kind` in ``kinds``.
    static func bit(_ kind: JSONTape.Kind) -> UInt8 {
        1 << UInt8(kind.rawValue)
    }

    /// The verdict on a value of kind `kind`, whose text is `text` when it is a string written as plain ASCII and
    /// whose value is `integer` when it is a number written as a plain integer; nil when the plan cannot tell.
    func verdict(kind: JSONTape.Kind, text: UnsafeBufferPointer<UInt8>?, integer: Int64?) -> Bool? {
        guard kinds & Self.bit(kind) != 0 else { return false }
        switch kind {
        case .string:
            guard minimumLength != nil || maximumLength != nil || pattern != nil || strings != nil else { return true }
            guard let text else { return nil }
            if let minimumLength, text.count < minimumLength { return false }
            if let maximumLength, text.count > maximumLength { return false }
            if let strings, !strings.contains(where: { Self.same(text, $0) }) { return false }
            if let pattern { return pattern.matchesPrintableASCII(text) }
            return true
        case .number:
            guard integersOnly || minimum != nil || maximum != nil || strings != nil else { return true }
            guard let integer, strings == nil else { return nil }
            if let minimum, minimum.exclusive ? integer <= minimum.limit : integer < minimum.limit { return false }
            if let maximum, maximum.exclusive ? integer >= maximum.limit : integer > maximum.limit { return false }
            return true
        default:
            return strings == nil ? true : nil
        }
    }

    /// Whether `text` holds exactly `bytes`.
    private static func same(_ text: UnsafeBufferPointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        guard text.count == bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { ObjectPlan.sameBytes(text, $0) }
    }
}
