import APITestOpenAPI

/// Splits operations into suite files and names the files: by tag (an operation's first; untagged ones in
/// `default`) or by first path segment, each name slugged (`Pet Store` → `pet-store.yaml`) and made unique
/// (`pets-2.yaml`). An operation that changes state (``isSafe(_:)`` is false: `POST`, `PUT`, `PATCH`, `DELETE`…)
/// shares a file with every operation on a related path (its own, above it or below it; a parameter segment matches
/// any segment), their groups joined at the first one's place: the runner orders tests only within a suite (a write
/// runs in its `teardown`), never across suites.
enum OperationGrouping {
    /// A group of operations that share a file.
    struct Group: Equatable {
        /// The tag or path segment (nil: the untagged operations, or those under `/`).
        var label: String?
        /// The operations' indexes in the description, in document order.
        var operations: [Int]
        /// The file name.
        var fileName: String
    }

    /// The groups of `operations`, in the order each first appears.
    static func groups(_ operations: [DescribedOperation], by grouping: SuiteGenerationOptions.Grouping) -> [Group] {
        var labels: [String?] = []
        var members: [[Int]] = []
        for (index, operation) in operations.enumerated() {
            let label = self.label(of: operation, by: grouping)
            if let position = labels.firstIndex(where: { $0 == label }) {
                members[position].append(index)
            } else {
                labels.append(label)
                members.append([index])
            }
        }
        joinGroupsThatWritesReach(operations, labels: &labels, members: &members)
        var used: Set<String> = []
        return zip(labels, members).map { label, operations in
            let base = label.map(slug) ?? (grouping == .tag ? "default" : "root")
            var name = base
            var counter = 2
            while used.contains(name) {
                name = "\(base)-\(counter)"
                counter += 1
            }
            used.insert(name)
            return Group(label: label, operations: operations, fileName: name + ".yaml")
        }
    }

    /// Whether `method` is safe (RFC 9110 §9.2.1: `GET`, `HEAD`, `OPTIONS`, `TRACE`): it changes no state, so
    /// it may run at the same time as any other safe operation. Every other method is taken to change state.
    static func isSafe(_ method: String) -> Bool {
        ["GET", "HEAD", "OPTIONS", "TRACE"].contains(method.uppercased())
    }

    /// Joins the groups of every operation that changes state and of the operations on a related path
    /// (``related(_:_:)``: `PUT /pets/{id}` reaches `GET /pets`, `GET /pets/{petId}` and `GET /pets/{id}/toys`)
    /// into the first of them, members in document order.
    private static func joinGroupsThatWritesReach(
        _ operations: [DescribedOperation], labels: inout [String?], members: inout [[Int]]
    ) {
        var groupOf: [Int: Int] = [:]
        for (group, indexes) in members.enumerated() {
            for index in indexes { groupOf[index] = group }
        }
        // Union-find over groups, the smaller position the root: a joined group keeps the first one's place.
        var parent = Array(members.indices)
        func root(_ group: Int) -> Int {
            var current = group
            while parent[current] != current { current = parent[current] }
            return current
        }
        let shapes = operations.map { shape(of: $0.pathTemplate) }
        for (index, operation) in operations.enumerated() where !isSafe(operation.method) {
            for (other, otherShape) in shapes.enumerated() where related(shapes[index], otherShape) {
                let (a, b) = (root(groupOf[index]!), root(groupOf[other]!))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var joinedLabels: [String?] = []
        var joinedMembers: [[Int]] = []
        var position: [Int: Int] = [:]
        for group in members.indices {
            let target = root(group)
            if let at = position[target] {
                joinedMembers[at] = (joinedMembers[at] + members[group]).sorted()
            } else {
                position[target] = joinedMembers.count
                joinedLabels.append(labels[group])
                joinedMembers.append(members[group])
            }
        }
        labels = joinedLabels
        members = joinedMembers
    }

    /// Whether a write on one path may change what the other returns: one is a prefix of the other (`/pets` and
    /// `/pets/{id}/toys`), segment by segment, a parameter segment (`{}`) matching any segment (`/pets/{id}` and
    /// `/pets/mine`).
    static func related(_ a: [String], _ b: [String]) -> Bool {
        zip(a, b).allSatisfy { x, y in x == y || x == "{}" || y == "{}" }
    }

    /// A path template's segments with every parameter's name left out (`/pets/{id}` → `["pets", "{}"]`).
    static func shape(of template: String) -> [String] {
        template.split(separator: "/").map { segment in
            segment.contains("{") ? "{}" : String(segment)
        }
    }

    /// The tag (first) or first path segment (braces dropped) of `operation`; nil for none.
    static func label(of operation: DescribedOperation, by grouping: SuiteGenerationOptions.Grouping) -> String? {
        switch grouping {
        case .tag:
            return operation.tags.first
        case .path:
            let segment = operation.pathTemplate.split(separator: "/").first.map(String.init) ?? ""
            let plain = segment.filter { $0 != "{" && $0 != "}" }
            return plain.isEmpty ? nil : plain
        }
    }

    /// A file name's stem from `text`: ASCII letters and digits lower-cased, every other run of characters one `-`,
    /// none at either end; `suite` when nothing is left.
    static func slug(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isASCII && (character.isLetter || character.isNumber) {
                result += character.lowercased()
            } else if !result.isEmpty && !result.hasSuffix("-") {
                result += "-"
            }
        }
        result = String(result.prefix(80))
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "suite" : result
    }
}
