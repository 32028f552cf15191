import APITestJSON
import APITestSupport

// MARK: - Warnings

extension OpenAPILoader {
    /// The members an Example Object may have besides extensions (OpenAPI 3.0, 3.1 and 3.2).
    static let exampleObjectMembers: Set<String> = [
        "summary", "description", "value", "externalValue", "dataValue", "serializedValue", "$ref",
    ]

    /// Checks the `example` and `examples` of a Media Type, Parameter or Header Object: both at once, an `examples`
    /// that is not a map, an entry that is not an Example Object (a bare value) are warnings; what the generator
    /// cannot read as an example it ignores.
    func checkExamples(of node: SpecNode) {
        guard let examples = node.member("examples") else { return }
        if node.member("example") != nil {
            warn(.exampleMisuse(.bothExampleAndExamples), at: examples.location)
        }
        guard case .object = examples.value else {
            warn(.exampleMisuse(.examplesNotMap(found: Self.type(of: examples.value))), at: examples.location)
            return
        }
        for (name, entry) in examples.members where !Self.isExampleObject(entry.value) {
            warn(.exampleMisuse(.entryNotExampleObject(name: name)), at: entry.location)
        }
    }

    /// Whether `value` reads as an Example Object (or a Reference Object to one): an object with `value`,
    /// `externalValue` or `$ref`, or whose every member is one an Example Object has.
    private static func isExampleObject(_ value: JSONValue) -> Bool {
        guard case .object(let object) = value else { return false }
        if object["value"] != nil || object["externalValue"] != nil || object["$ref"] != nil { return true }
        return object.allSatisfy { exampleObjectMembers.contains($0.key) || $0.key.hasPrefix("x-") }
    }

    /// The Operation Object at `member` of a path item. OpenAPI has no Reference Object there, but split documents
    /// write one (DigitalOcean's: `get: {$ref: resources/droplets/droplets_list.yml}`), which bundlers follow: it
    /// is followed too, with a warning, rather than read as an operation that declares nothing; nil when it leads
    /// nowhere (reported).
    func operationNode(_ member: SpecNode) -> SpecNode? {
        guard case .object(let object) = member.value, object["$ref"] != nil else { return member }
        warn(.operationReference, at: member.location.appending("$ref"))
        return resolve(member)
    }

    /// The warnings of the load, the translation's and the loader's, in the order of their places in the files.
    func collectedWarnings() -> [OpenAPILoadProblem] {
        let translated = schemas.translationWarnings.map { warning in
            OpenAPILoadProblem(
                kind: warning.kind, location: documents.sourceLocation(warning.location),
                pointer: warning.location.pointer)
        }
        var seen: Set<OpenAPILoadProblem> = []
        return (translated + loaderWarnings).filter { seen.insert($0).inserted }.sorted { first, second in
            (first.location.file, first.location.line, first.location.column)
                < (second.location.file, second.location.line, second.location.column)
        }
    }
}
