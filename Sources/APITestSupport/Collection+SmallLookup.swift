// MARK: - Looking up a few string keys

/// How many elements a lookup compares in turn before it hashes: comparing a name with a few others (small strings
/// compare as two words) costs less than hashing it, for lookups that run for every request or every body member.
@usableFromInline
let smallLookupLimit = 8

extension Set {
    /// `contains(element)`: the elements compared in turn when there are few, one hash lookup otherwise.
    @inlinable
    package func containsComparingFew(_ element: Element) -> Bool {
        count <= smallLookupLimit ? contains { $0 == element } : contains(element)
    }
}

extension Dictionary {
    /// `self[key]`: the keys compared in turn when there are few, one hash lookup otherwise.
    @inlinable
    package func valueComparingFew(forKey key: Key) -> Value? {
        guard count <= smallLookupLimit else { return self[key] }
        return first { $0.key == key }?.value
    }
}
