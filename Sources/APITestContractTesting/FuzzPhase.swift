import APITestSupport

/// A phase of a fuzz run, as Schemathesis 4 names them: each makes cases its own way, and they run in this order.
package enum FuzzPhase: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Every example the document gives (media types, parameters, schemas).
    case examples
    /// Boundary values of every schema keyword, valid and invalid, and requests made to get each documented status.
    case coverage
    /// Seeded random data, valid and invalid, `--max-examples` per operation.
    case fuzzing
    /// Sequences through links: create, read, update, delete.
    case stateful

    /// The order the phases run in.
    package static func < (lhs: FuzzPhase, rhs: FuzzPhase) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The phases a comma-separated list names (`examples,coverage`); `all`, alone or in the list, for every phase.
    ///
    /// - Throws: ``FuzzOptionError`` for an unknown name, with the closest known one.
    package static func parse(_ list: String) throws(FuzzOptionError) -> [FuzzPhase] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { FuzzNames.trimmed($0) }
        if names.isEmpty || names.contains("") { throw FuzzOptionError(.emptyList(option: "--phases")) }
        if names == ["all"] { return allCases }
        var phases: Set<FuzzPhase> = []
        for name in names {
            // `all` beside other names is all of them (the others are still checked).
            if name == "all" {
                phases.formUnion(allCases)
                continue
            }
            guard let phase = FuzzPhase(rawValue: name) else {
                throw FuzzOptionError(
                    .unknownName(option: "--phases", name: name, known: allCases.map(\.rawValue) + ["all"]))
            }
            phases.insert(phase)
        }
        return allCases.filter(phases.contains)
    }
}

/// A fuzz option that names something unknown.
package struct FuzzOptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package enum Kind: Sendable, Hashable {
        /// A name `option` does not know; the names it knows.
        case unknownName(option: String, name: String, known: [String])
        /// An empty list, or an empty name in it.
        case emptyList(option: String)
    }

    /// What is wrong.
    package var kind: Kind

    /// An error of `kind`.
    package init(_ kind: Kind) { self.kind = kind }

    /// The sentence a command line shows.
    package var description: String {
        switch kind {
        case .unknownName(let option, let name, let known):
            let shown = name.shownInMessage
            return "\(option): unknown name '\(shown)'" + Suggestion.didYouMean(name, in: known)
                + " (known: \(known.joined(separator: ", ")))"
        case .emptyList(let option):
            return "\(option) needs a comma-separated list of names, without empty entries"
        }
    }
}

/// The names of comma-separated option lists.
enum FuzzNames {
    /// `text` without the spaces around it.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
