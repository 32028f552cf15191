import APITestSupport

/// The bodies beyond JSON, form and raw text: multipart forms, property lists and XML.
extension SuiteParser {
    static let multipartPartKeys = ["name", "value", "file", "data", "filename", "contentType", "headers"]
    static let multipartContentKeys = ["value", "file", "data"]

    // MARK: - Multipart

    /// `multipart:` a list of parts, each `{name, value}`, `{name, file, filename?, contentType?}` or
    /// `{name, data, filename?, contentType?}`, with optional `headers`.
    func parseMultipart(_ node: YAMLNode) -> [MultipartPartSpec]? {
        guard let items = sequence(node, for: "multipart") else { return nil }
        if items.isEmpty {
            error("'multipart' needs at least one part", at: node)
            return nil
        }
        var parts: [MultipartPartSpec] = []
        var valid = true
        for item in items {
            if let part = parseMultipartPart(item) {
                parts.append(part)
            } else {
                valid = false
            }
        }
        return valid ? parts : nil
    }

    private func parseMultipartPart(_ node: YAMLNode) -> MultipartPartSpec? {
        guard let entries = mapping(node, for: "multipart part") else { return nil }
        checkKeys(entries, allowed: Self.multipartPartKeys, in: "multipart part")
        let at = location(of: node)
        let contents = entries.filter { Self.multipartContentKeys.contains($0.key) }
        guard let nameEntry = entries[key: "name"] else {
            error("a multipart part needs a 'name'", at: at)
            return nil
        }
        guard contents.count == 1, let contentEntry = contents.first else {
            if contents.isEmpty {
                error("a multipart part needs one of 'value', 'file' or 'data'", at: at)
            } else {
                error(
                    "a multipart part takes one of 'value', 'file' or 'data'; found "
                        + contents.map { "'\($0.key)'" }.joined(separator: " and "), at: contents[1].keyNode)
            }
            return nil
        }
        guard let name = template(nameEntry.value, for: "name") else { return nil }
        let content: MultipartPartSpec.Content
        switch contentEntry.key {
        case "value":
            guard let value = template(contentEntry.value, for: "value") else { return nil }
            content = .value(value)
        case "data":
            guard let data = template(contentEntry.value, for: "data") else { return nil }
            content = .data(data)
        default:
            guard let path = text(contentEntry.value, for: "file"),
                let absolute = checkBodyFile(path, at: contentEntry.value, for: "file")
            else { return nil }
            content = .file(absolutePath: absolute)
        }
        var part = MultipartPartSpec(name: name, content: content, location: at)
        if let entry = entries[key: "filename"] {
            if case .value = content {
                error("'filename' applies to 'file' and 'data' parts", at: entry.keyNode)
            }
            part.filename = template(entry.value, for: "filename")
        }
        if let entry = entries[key: "contentType"] { part.contentType = template(entry.value, for: "contentType") }
        if let entry = entries[key: "headers"] { part.headers = parseHeaders(entry.value) }
        return part
    }

    // MARK: - Property lists and XML

    /// `plist:` any value but null (property lists have no null); XML format unless `plistFormat` says otherwise.
    func parsePlist(_ node: YAMLNode) -> BodySpec? {
        let value = templateValue(node)
        if let path = Self.firstNull(in: value) {
            error("a property list cannot hold null (at \(path))", at: node)
            return nil
        }
        return .plist(value, format: .xml)
    }

    /// `plistFormat: xml | binary`.
    func plistFormat(_ node: YAMLNode) -> PropertyListFormat? {
        guard let text = text(node, for: "plistFormat") else { return nil }
        guard let format = PropertyListFormat(rawValue: text) else {
            error(
                "unknown plistFormat '\(text)'; use xml or binary"
                    + Suggestion.didYouMean(text, in: PropertyListFormat.allCases.map(\.rawValue)), at: node)
            return nil
        }
        return format
    }

    /// `xml:` the document as text, or `{file: path}` for a file streamed from disk.
    func parseXML(_ node: YAMLNode) -> BodySpec? {
        guard isMapping(node) else { return template(node, for: "xml").map(BodySpec.xml) }
        guard let entries = mapping(node, for: "xml") else { return nil }
        checkKeys(entries, allowed: ["file"], in: "xml")
        guard let entry = entries[key: "file"] else {
            error("'xml' takes the document as text, or {file: path}", at: node)
            return nil
        }
        guard let path = text(entry.value, for: "file"),
            let absolute = checkBodyFile(path, at: entry.value, for: "file")
        else { return nil }
        return .xmlFile(absolutePath: absolute)
    }

    /// The path (`$`, `$.a`, `$.a[0]`) of the first literal null in `value`.
    static func firstNull(in value: TemplateValue, path: String = "$") -> String? {
        switch value {
        case .null: return path
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = firstNull(in: item, path: "\(path)[\(index)]") { return found }
            }
            return nil
        case .object(let members):
            for member in members {
                if let found = firstNull(in: member.value, path: "\(path).\(member.key)") { return found }
            }
            return nil
        default: return nil
        }
    }
}
