import APITestJSON

// MARK: - The document's structure (--strict-spec)

extension OpenAPILoader {
    /// With `--strict-spec`, the members the OpenAPI specification requires that the lenient load does without,
    /// each missing or mistyped one an error at its place: the document's `info` (an object with a string `title`
    /// and `version`), `paths` (3.0; 3.1 requires `paths`, `components` or `webhooks`), each 3.0 operation's
    /// `responses`, and each Response Object's `description` (a string). What the lenient load already refuses
    /// (a `paths` that is no object, an unresolvable `$ref`, a parameter without `in`) is reported by the load itself.
    func checkStructure(_ root: SpecNode) {
        let isOpenAPI30 = version.hasPrefix("3.0")
        if let info = root.member("info") {
            if let info = object(info, "info") {
                for member in ["title", "version"] {
                    if let value = info.member(member) {
                        _ = string(value, member)
                    } else {
                        report(.missingMember(member: member, in: "info"), at: info.location)
                    }
                }
            }
        } else {
            report(.missingMember(member: "info", in: "document"), at: root.location)
        }
        guard let paths = root.member("paths") else {
            if isOpenAPI30 || (root.member("components") == nil && root.member("webhooks") == nil) {
                report(.missingMember(member: "paths", in: "document"), at: root.location)
            }
            return
        }
        guard paths.value.objectValue != nil else { return } // the load reports it
        for (key, node) in paths.members where !key.hasPrefix("x-") {
            guard let item = resolve(node), item.value.objectValue != nil else { continue }
            for method in Self.methods {
                guard let member = item.member(method), let operation = resolve(member),
                    operation.value.objectValue != nil
                else { continue }
                guard let responses = operation.member("responses") else {
                    if isOpenAPI30 { report(.missingMember(member: "responses", in: method), at: operation.location) }
                    continue
                }
                guard responses.value.objectValue != nil else { continue } // the load reports it
                for (status, response) in responses.members where !status.hasPrefix("x-") {
                    guard let resolved = resolve(response), resolved.value.objectValue != nil else { continue }
                    if let description = resolved.member("description") {
                        _ = string(description, "description")
                    } else {
                        report(.missingMember(member: "description", in: "response"), at: resolved.location)
                    }
                }
            }
        }
    }
}
