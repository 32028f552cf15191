import APITestSupport
import APITestYAML

/// `expect.snapshot`: a name (`snapshot: user`) or a map (`snapshot: {name: user, ignore: [$.id], redact: [uuid]}`).
enum SnapshotParser {
    /// The keys of the map form of `snapshot`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, ignore, redact

        var schema: SchemaValue {
            switch self {
            case .name:
                .described(
                    "The snapshot's name: __snapshots__/<suite file stem>/<name>.json (or .txt) next to the suite.",
                    ["type": "string", "pattern": .string(SnapshotParser.namePattern)])
            case .ignore:
                .described(
                    "JSONPaths of members and items removed from both sides before comparing (volatile fields).",
                    ["type": "array", "items": ["type": "string", "pattern": #"^\s*\$"#]])
            case .redact:
                .described(
                    "Built-in patterns whose matching strings are replaced by a placeholder on both sides: uuid, "
                        + "date (an ISO 8601 date, with or without a time), datetime.",
                    [
                        "type": "array",
                        "items": ["enum": .array(SnapshotSpec.Redaction.allCases.map { .string($0.rawValue) })],
                    ])
            }
        }

        /// The definition of `expect.snapshot`.
        static var definition: SchemaValue {
            .described(
                "The body compared with a stored snapshot (JSON structurally, other bodies as text); "
                    + "--update-snapshots writes them, a missing one is written unless CI is set.",
                [
                    "anyOf": [
                        ["type": "string", "pattern": .string(SnapshotParser.namePattern)],
                        [
                            "type": "object", "additionalProperties": false, "required": ["name"],
                            "properties": properties,
                        ],
                    ]
                ])
        }
    }

    /// What a name may be: a file name of letters, digits, `-`, `_` and `.`, starting with a letter or digit.
    static let namePattern = "^[A-Za-z0-9][A-Za-z0-9._-]*$"

    /// The longest name accepted.
    static let maxNameLength = 100

    // MARK: - Parsing

    /// The snapshot of `expect.snapshot`; reports a bad name, unknown keys, bad paths and unknown patterns.
    static func parse(_ node: YAMLNode, in context: SuiteParseContext) -> SnapshotSpec? {
        let location = context.location(of: node)
        guard context.isMapping(node) else {
            guard let name = context.text(node, for: "snapshot"), valid(name, at: node, in: context) else { return nil }
            return SnapshotSpec(name: name, location: location)
        }
        guard let entries = context.mapping(node, for: "snapshot") else { return nil }
        context.checkKeys(entries, of: Key.self, in: "snapshot")
        var name: String?
        var spec = SnapshotSpec(name: "", location: location)
        var valid = true
        for entry in entries {
            switch Key(named: entry.key) {
            case .name:
                if let text = context.text(entry.value, for: "name"), Self.valid(text, at: entry.value, in: context) {
                    name = text
                } else {
                    valid = false
                }
            case .ignore:
                guard let items = context.sequence(entry.value, for: "ignore") else {
                    valid = false
                    continue
                }
                for item in items {
                    guard let text = context.text(item, for: "an ignore path"),
                        let path = context.jsonPath(text, at: item)
                    else {
                        valid = false
                        continue
                    }
                    spec.ignore.append(path)
                }
            case .redact:
                guard let items = context.sequence(entry.value, for: "redact") else {
                    valid = false
                    continue
                }
                for item in items {
                    guard let text = context.text(item, for: "a redact pattern") else {
                        valid = false
                        continue
                    }
                    guard let pattern = SnapshotSpec.Redaction(rawValue: text) else {
                        let names = SnapshotSpec.Redaction.allCases.map(\.rawValue)
                        context.error(
                            "unknown redact pattern '\(text)'" + Suggestion.didYouMean(text, in: names), at: item,
                            note: "the patterns are " + names.joined(separator: ", "))
                        valid = false
                        continue
                    }
                    if !spec.redact.contains(pattern) { spec.redact.append(pattern) }
                }
            case nil: valid = false
            }
        }
        guard let name else {
            if valid, entries[Key.name] == nil {
                context.error(
                    "'snapshot' needs a 'name'", at: node, note: "write snapshot: {name: user, ignore: [$.id]}")
            }
            return nil
        }
        guard valid else { return nil }
        spec.name = name
        return spec
    }

    /// Whether `name` can name a snapshot file; reports why not at `node`.
    private static func valid(_ name: String, at node: YAMLNode, in context: SuiteParseContext) -> Bool {
        let problem: String?
        if name.isEmpty {
            problem = "it is empty"
        } else if name.contains("/") || name.contains("\\") {
            problem = "it holds a path separator"
        } else if name.contains("..") {
            problem = "it holds '..'"
        } else if name.unicodeScalars.count > maxNameLength {
            problem = "it is longer than \(maxNameLength) characters"
        } else if !name.unicodeScalars.allSatisfy(isNameCharacter) || !isAlphanumeric(name.unicodeScalars.first!) {
            problem = "a name is letters, digits, '-', '_' and '.', starting with a letter or a digit"
        } else {
            problem = nil
        }
        guard let problem else { return true }
        context.error(
            "invalid snapshot name '\(name.shownInMessage)': \(problem)", at: node,
            note: "the name is a file name under __snapshots__/<suite file stem>/, like 'user' or 'list-users'")
        return false
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isAlphanumeric(scalar) || scalar == "-" || scalar == "_" || scalar == "."
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
