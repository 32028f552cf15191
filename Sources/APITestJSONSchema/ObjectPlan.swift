import APITestJSON

/// An object schema's `properties`, `additionalProperties` and `required` made into one pass over an object's
/// members, for ``SchemaQuickCheck``: each member's name is looked up once among the names the three keywords
/// know (its slot), which says which subschema applies to its value and which required name it is, instead of
/// a list of the members, then a lookup per keyword per member.
///
/// Made once per schema node when it compiles (``SchemaNode/objectPlan``); only the quick check reads it (the
/// evaluator, which reports paths and messages, walks the keywords one by one).
final class ObjectPlan: Sendable {
    /// One name the keywords know.
    struct Slot: Sendable {
        /// The name.
        let name: String
        /// Its schema in `properties`, if any.
        let schema: SchemaNode?
        /// Whether `additionalProperties` leaves it alone (it is a key of `properties`).
        let isDeclared: Bool
    }

    /// The names: `properties`' keys, then the names only `required` lists.
    let slots: [Slot]
    /// The bits of the slots `required` lists.
    let requiredMask: UInt64
    /// `additionalProperties`, for a member whose name no slot declares.
    let additional: SchemaNode?
    /// For each keyword of the node, whether the plan checks it (the quick check skips those).
    let covers: [Bool]

    /// The plan of a node's `keywords`; nil when they have none of the three, or what the plan cannot hold:
    /// `additionalProperties` beside `patternProperties`, more than 64 names.
    init?(keywords: [Keyword]) {
        var slots: [Slot] = []
        var required: [String] = []
        var additional: SchemaNode?
        var covers = [Bool](repeating: false, count: keywords.count)
        for (position, keyword) in keywords.enumerated() {
            switch keyword.check {
            case .properties(let nodes):
                guard slots.isEmpty else { return nil }
                // Sorted so that a plan does not depend on the dictionary's order (the verdict never does).
                slots = nodes.sorted { $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8) }.map {
                    Slot(name: $0.key.text, schema: $0.value, isDeclared: true)
                }
                covers[position] = true
            case .additionalProperties(let node, _, let patterns):
                guard patterns.isEmpty, additional == nil else { return nil }
                additional = node
                covers[position] = true
            case .required(let names):
                required += names
                covers[position] = true
            default:
                continue
            }
        }
        guard covers.contains(true) else { return nil }
        // `additionalProperties`' names are `properties`' keys (KeywordContext): a declared slot is exempt.
        if additional != nil,
            let keyword = keywords.first(where: { if case .additionalProperties = $0.check { true } else { false } }),
            case .additionalProperties(_, let names, _) = keyword.check,
            names.count != slots.count || !slots.allSatisfy({ names.contains(CodePointKey($0.name)) })
        {
            return nil
        }
        var mask: UInt64 = 0
        for name in required {
            if let slot = slots.firstIndex(where: { $0.name.hasSameCodePoints(as: name) }) {
                guard slot < 64 else { return nil }
                mask |= 1 << UInt64(slot)
            } else {
                slots.append(Slot(name: name, schema: nil, isDeclared: false))
                guard slots.count <= 64 else { return nil }
                mask |= 1 << UInt64(slots.count - 1)
            }
        }
        guard slots.count <= 64 else { return nil }
        self.slots = slots
        self.requiredMask = mask
        self.additional = additional
        self.covers = covers
    }

    /// The slot of the member name whose UTF-8 bytes are `name`, if any.
    func slot(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        for position in slots.indices where slots[position].name.utf8.count == name.count {
            let same =
                slots[position].name.utf8.withContiguousStorageIfAvailable { Self.sameBytes(name, $0) }
                ?? slots[position].name.utf8.elementsEqual(name)
            if same { return position }
        }
        return nil
    }

    /// Whether two byte buffers hold the same bytes.
    static func sameBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for position in 0..<lhs.count where lhs[position] != rhs[position] { return false }
        return true
    }

    /// The slot of the member name `name`, if any.
    func slot(of name: String) -> Int? {
        let count = name.utf8.count
        for position in slots.indices
        where slots[position].name.utf8.count == count && slots[position].name.hasSameCodePoints(as: name) {
            return position
        }
        return nil
    }
}
