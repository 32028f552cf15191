import APITestJSON

/// Annotations that `unevaluatedProperties` and `unevaluatedItems` consume: which members and items the
/// successful parts of a schema have evaluated.
struct Annotations {
    /// Member names, compared by code points.
    var properties: Set<CodePointKey> = []
    var allProperties = false
    /// Items `0..<itemCount` were evaluated (`prefixItems`).
    var itemCount = 0
    var allItems = false
    /// Items evaluated by `contains`.
    var itemIndices: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        properties.formUnion(other.properties)
        allProperties = allProperties || other.allProperties
        itemCount = max(itemCount, other.itemCount)
        allItems = allItems || other.allItems
        itemIndices.formUnion(other.itemIndices)
    }

    func isEvaluated(property name: String) -> Bool { allProperties || properties.contains(CodePointKey(name)) }
    func isEvaluated(item index: Int) -> Bool { allItems || index < itemCount || itemIndices.contains(index) }
}
