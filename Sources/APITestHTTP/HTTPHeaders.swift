import APITestSupport

/// An ordered list of HTTP header fields: repeated fields are kept, names compare case-insensitively.
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

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(_ pairs: [(String, String)]) {
        self.fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    // MARK: - Collection

    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }

    // MARK: - Lookup

    /// The first value of the field called `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of the field called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    // MARK: - Mutation

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`, at the first one's position.
    public mutating func set(name: String, value: String) {
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

    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }
}
