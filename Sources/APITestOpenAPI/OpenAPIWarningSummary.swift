/// A document's load warnings as a command shows them, once per document: the first few distinct ones of each kind
/// (``perKind``; a warning repeated word for word at other places is shown once), and for each kind a count of the
/// rest (`... and 212 more of kind unknown-format`), so that a vendor's document with hundreds of them stays
/// readable.
///
/// ```swift
/// let summary = OpenAPIWarningSummary(contract.warnings)
/// for warning in summary.shown { print(warning) }
/// for rest in summary.omitted { print("... and \(rest.count) more of kind \(rest.kindName)") }
/// ```
package struct OpenAPIWarningSummary: Sendable, Hashable {
    /// What is left out of one kind.
    package struct Omitted: Sendable, Hashable {
        /// The kind's name (``OpenAPILoadProblem/kindName``).
        package var kindName: String
        /// How many warnings of the kind are not shown.
        package var count: Int
    }

    /// How many distinct warnings of one kind are shown.
    package static let perKind = 5

    /// The warnings shown, in the order given.
    package var shown: [OpenAPILoadProblem]
    /// The kinds with warnings left out, in the order their first warning was given.
    package var omitted: [Omitted]

    /// The summary of `warnings`, showing at most `perKind` distinct messages of each kind.
    package init(_ warnings: [OpenAPILoadProblem], perKind: Int = Self.perKind) {
        var shown: [OpenAPILoadProblem] = []
        var shownCount: [String: Int] = [:]
        var messages: Set<String> = []
        var omittedCount: [String: Int] = [:]
        var kindOrder: [String] = []
        for warning in warnings {
            let kind = warning.kindName
            if shownCount[kind] == nil && omittedCount[kind] == nil { kindOrder.append(kind) }
            if shownCount[kind, default: 0] < perKind, messages.insert(warning.message).inserted {
                shown.append(warning)
                shownCount[kind, default: 0] += 1
            } else {
                omittedCount[kind, default: 0] += 1
            }
        }
        self.shown = shown
        omitted = kindOrder.compactMap { kind in
            omittedCount[kind].map { Omitted(kindName: kind, count: $0) }
        }
    }
}

extension OpenAPIWarningSummary.Omitted: CustomStringConvertible {
    /// `... and 212 more of kind unknown-format`.
    package var description: String {
        "... and \(count) more of kind \(kindName)"
    }
}
