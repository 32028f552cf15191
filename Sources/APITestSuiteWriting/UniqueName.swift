/// Names that must differ within a file (test names): the second `login` becomes `login (2)`.
package enum UniqueName {
    /// `name`, or `name (2)`, `name (3)`, ... when taken; the result is added to `used`.
    package static func make(_ name: String, among used: inout Set<String>) -> String {
        var candidate = name
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(name) (\(counter))"
            counter += 1
        }
        used.insert(candidate)
        return candidate
    }
}
