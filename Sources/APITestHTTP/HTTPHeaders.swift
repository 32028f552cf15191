import APITestSupport

/// An ordered list of HTTP header fields: repeated fields are kept, names compare case-insensitively.
///
/// A received response's fields stay the field lines libcurl delivered until something reads them
/// (``init(fieldLines:)``): a lookup by name reads the lines in place and makes a `String` of the value it finds only,
/// and the first read of the fields as a list makes them all, once. A passing test's checks usually read one field
/// (`Content-Type`), so the others are never made.
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field as sent or received.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, or the received field lines they are read from when first asked.
    private enum Storage: Sendable {
        case fields([Field])
        case lines(ReceivedFieldLines)
    }

    private var storage: Storage

    /// Every field, in order.
    public var fields: [Field] {
        switch storage {
        case .fields(let fields): fields
        case .lines(let lines): lines.fields
        }
    }

    public init(_ fields: [Field] = []) {
        storage = .fields(fields)
    }

    public init(_ pairs: [(String, String)]) {
        storage = .fields(pairs.map { Field(name: $0.0, value: $0.1) })
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Fields read from received field lines when first asked (see `HTTPHeaders+FieldLines.swift`).
    init(lines: ReceivedFieldLines) {
        storage = .lines(lines)
    }

    // MARK: - Equality

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    // MARK: - Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }

    // MARK: - Lookup

    /// The first value of the field called `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        switch storage {
        case .fields(let fields):
            // By index: `first(where:)` copied (retained and released) every field it passed.
            for index in fields.indices where fields[index].name.caseInsensitiveEquals(name) {
                return fields[index].value
            }
            return nil
        case .lines(let lines):
            return lines.firstValue(named: name)
        }
    }

    /// `body` on the bytes of the first value of the field called `name` as received, read in place (`nil` when
    /// there is no such field), when the headers hold received field lines and the value needs no joining (see
    /// ``ReceivedFieldLines/withFirstValue(named:_:)``); `nil` without calling `body` otherwise. The bytes are
    /// those ``subscript(_:)`` would make its `String` of.
    func withReceivedValue<Result>(
        named name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
    ) -> Result? {
        guard case .lines(let lines) = storage else { return nil }
        return lines.withFirstValue(named: name, body)
    }

    /// Every value of the field called `name`, in order.
    public func values(for name: String) -> [String] {
        switch storage {
        case .fields(let fields): fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        case .lines(let lines): lines.values(named: name)
        }
    }

    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    // MARK: - Mutation

    /// `body` on the fields as a list, which the headers then hold (the received lines are read first).
    private mutating func withFields<Result>(_ body: (inout [Field]) -> Result) -> Result {
        var fields: [Field]
        switch storage {
        case .fields(let held): fields = held
        case .lines(let lines): fields = lines.fields
        }
        // Let go of the storage's reference, so that `fields` is changed in place, not copied.
        storage = .fields([])
        defer { storage = .fields(fields) }
        return body(&fields)
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        withFields { $0.append(Field(name: name, value: value)) }
    }

    /// Replaces every field called `name` with one field holding `value`, at the first one's position.
    public mutating func set(name: String, value: String) {
        withFields { fields in
            if let first = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                fields[first] = Field(name: name, value: value)
                var index = fields.index(after: first)
                while index < fields.endIndex {
                    if fields[index].name.caseInsensitiveEquals(name) {
                        fields.remove(at: index)
                    } else {
                        index = fields.index(after: index)
                    }
                }
            } else {
                fields.append(Field(name: name, value: value))
            }
        }
    }

    public mutating func remove(name: String) {
        withFields { $0.removeAll { $0.name.caseInsensitiveEquals(name) } }
    }
}
