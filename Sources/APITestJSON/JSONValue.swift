/// A JSON value that keeps numbers exact and object members in document order.
///
/// Numbers compare by their exact decimal value across cases (`.integer(1) == .double(1.0)`,
/// `.number(12345678901234567890) != .number(12345678901234567891)`; see ``numericOrder(_:_:)``), strings and
/// member names by their code points (`"e\u{301}" != "\u{E9}"`, unlike Swift's `String ==`), and objects
/// without regard to member order, as RFC 8259 and RFC 9535 treat them. Values of different JSON types are never
/// equal: the string `"5"` is not the number `5`.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// A number whose decimal text reads as this double and back (`0.1`, `1.5e300`); the double stands for that
    /// decimal (its shortest round-trip text).
    case double(Double)
    /// Any other number, kept exactly: integers beyond 64 bits, decimals with more digits than a double holds.
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Equality

extension JSONValue: Hashable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer, .integer), (.integer, .double), (.double, .integer), (.double, .double),
            (.number, .integer), (.number, .double), (.number, .number), (.integer, .number), (.double, .number):
            return numericOrder(lhs, rhs) == 0
        case (.string(let a), .string(let b)): return a.hasSameCodePoints(as: b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .integer(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        // Equal numbers have equal nearest doubles.
        case .number(let n): hasher.combine(n.doubleValue)
        case .string(let s): s.hashCodePoints(into: &hasher)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The value's JSON type name: `null`, `boolean`, `integer`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .double(let d): return d.rounded() == d && abs(d) < 9.007_199_254_740_992e15 ? "integer" : "number"
        case .number(let n): return n.isInteger ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The numeric value, for numbers (the nearest double for `.number`).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .number(let n): return n.doubleValue
        default: return nil
        }
    }

    /// The exact decimal value, for numbers (`nil` for NaN and infinities).
    public var numberValue: JSONNumber? {
        switch self {
        case .integer(let i): return JSONNumber(i)
        case .double(let d): return JSONNumber(d)
        case .number(let n): return n
        default: return nil
        }
    }

    /// The string, for `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, for `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, for `.object`.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Member lookup on objects; `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

// MARK: - JSONObject

/// A JSON object: members in document order, with keyed lookup. Names compare by code points (`"e\u{301}"` and
/// `"\u{E9}"` are two members); equality ignores member order.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    public typealias Member = (key: String, value: JSONValue)

    public private(set) var members: [Member]
    /// Positions by key, built only for objects larger than `indexThreshold`: most API objects are small, and a
    /// linear scan of a few members is cheaper than a dictionary per object.
    private var index: [CodePointKey: Int]?
    private static let indexThreshold = 12

    /// Creates an object from members; a repeated key keeps its last value at its first position.
    public init(_ members: [Member] = []) {
        self.members = []
        self.index = nil
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// Adopts parsed members as they are when their keys are unique (the usual case: no copy, no per-member
    /// lookups); otherwise applies ``init(_:)``'s rule for repeated keys.
    init(parsedMembers members: [Member]) {
        self = Self.adopting(members)
    }

    private init(members: [Member], index: [CodePointKey: Int]?) {
        self.members = members
        self.index = index
    }

    private static func adopting(_ members: [Member]) -> JSONObject {
        let count = members.count
        if count <= Self.indexThreshold {
            var unique = true
            if count > 1 {
                search: for later in 1..<count {
                    for earlier in 0..<later where members[earlier].key.hasSameCodePoints(as: members[later].key) {
                        unique = false
                        break search
                    }
                }
            }
            if unique { return JSONObject(members: members, index: nil) }
        } else {
            var index = [CodePointKey: Int](minimumCapacity: count)
            var unique = true
            for (position, member) in members.enumerated()
            where index.updateValue(position, forKey: CodePointKey(member.key)) != nil {
                unique = false
                break
            }
            if unique { return JSONObject(members: members, index: index) }
        }
        return JSONObject(members)
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    public var keys: [String] { members.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[CodePointKey(key)] }
        return members.firstIndex { $0.key.hasSameCodePoints(as: key) }
    }

    private mutating func rebuildIndex() {
        index =
            members.count > Self.indexThreshold
            ? Dictionary(uniqueKeysWithValues: members.enumerated().map { (CodePointKey($1.key), $0) }) : nil
    }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key: key, value: newValue))
                if index != nil {
                    index?[CodePointKey(key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (key, value) in lhs.members where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine a commutative sum of member hashes.
        var sum = 0
        for (key, value) in members {
            var h = Hasher()
            key.hashCodePoints(into: &h)
            h.combine(value)
            sum &+= h.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}
