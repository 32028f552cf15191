import APITestJSON
import APITestJSONSchema
import APITestSupport

/// Turns a validation error's evaluation path (`/items/$ref/properties/id/type`, relative to the schema checked)
/// into the place of the failing keyword in the document (`#/components/schemas/Pet/properties/id/type`), following
/// each `$ref` the way the compiler did.
struct SchemaPathTracer: Sendable {
    /// The root file's absolute path; its places are written `#/...`, other files' `relative/path.yaml#/...`.
    let rootPath: String
    /// The document's files.
    let files: [String: OpenAPISourceFile]
    /// Absolute `$id`s of OpenAPI 3.1 schemas and where they are.
    let identifiers: [String: SpecLocation]

    /// The keyword's place: the pointer text for people and its location in the file; nil when a reference on the
    /// way cannot be followed here (a plain-name anchor, a `$dynamicRef`).
    func trace(_ site: SpecLocation, evaluationPath: String) -> (text: String, location: SourceLocation)? {
        guard var tokens = JSONPointerText.tokens(evaluationPath) else { return nil }
        tokens.reverse()
        var current = site
        while let token = tokens.popLast() {
            if token == "$ref" || token == "$dynamicRef",
                case .string(let reference) = value(at: current)?[token]
            {
                guard let target = referenceTarget(reference, from: current) else { return nil }
                current = target
            } else {
                current.pointer.append(token)
            }
        }
        return (text(of: current), location(of: current))
    }

    /// `#/pointer` in the root file, `relative/file.yaml#/pointer` in another.
    func text(of location: SpecLocation) -> String {
        let directory = FilePaths.directory(of: rootPath)
        var file = ""
        if location.path != rootPath {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            file = location.path.hasPrefix(prefix) ? String(location.path.dropFirst(prefix.count)) : location.path
        }
        return file + location.fragment
    }

    /// Where `location` is in its file.
    func location(of location: SpecLocation) -> SourceLocation {
        files[location.path]?.locate(location.pointer) ?? SourceLocation(file: location.path, line: 1, column: 1)
    }

    private func value(at location: SpecLocation) -> JSONValue? {
        files[location.path].flatMap { JSONPointer.value(in: $0.value, at: location.pointer) }
    }

    private func referenceTarget(_ reference: String, from location: SpecLocation) -> SpecLocation? {
        switch ReferenceText.target(of: reference, from: location.path) {
        case .location(let target) where files[target.path] != nil:
            return target
        default:
            var uri = Substring(reference)
            var fragment: Substring = ""
            if let hash = reference.firstIndex(of: "#") {
                uri = reference[..<hash]
                fragment = reference[reference.index(after: hash)...]
            }
            guard let base = identifiers[String(uri)],
                let tokens = PercentEncoding.decode(fragment).flatMap(JSONPointerText.tokens)
            else { return nil }
            return SpecLocation(path: base.path, pointer: base.pointer + tokens)
        }
    }
}
