/// Names that must differ within a file (test names): the second `login` becomes `login (2)`.
///
/// The next number of each name is kept, so making n names is linear in n: 5,000 operations of one name do not try
/// 12.5 million candidates, as trying `name (2)`, `name (3)`, ... from 2 each time would.
package struct UniqueName: Sendable {
    /// The names taken.
    private var used: Set<String> = []
    /// The next number to try after each name that is taken (`login` → 3 once `login (2)` is).
    private var nextNumbers: [String: Int] = [:]
    /// The candidates tried so far, for tests that check the work stays linear.
    package private(set) var candidatesTried = 0

    /// No name taken yet.
    package init() {}

    /// `name`, or `name (N)` with the first N from 2 that is free; the result is taken.
    package mutating func make(_ name: String) -> String {
        var candidate = name
        candidatesTried += 1
        if used.contains(candidate) {
            var counter = nextNumbers[name] ?? 2
            repeat {
                candidate = "\(name) (\(counter))"
                counter += 1
                candidatesTried += 1
            } while used.contains(candidate)
            nextNumbers[name] = counter
        }
        used.insert(candidate)
        return candidate
    }
}
