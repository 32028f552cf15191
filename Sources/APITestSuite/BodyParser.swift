import APITestSupport
import APITestYAML

/// A request's body: JSON, form, raw text, a file, multipart forms, property lists and XML.
enum BodyParser {
    /// The keys of a multipart part.
    enum PartKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case name, value, file, data, filename, contentType, headers

        /// True for the keys that give a part its content (it takes one of them).
        var isContent: Bool { self == .value || self == .file || self == .data }

        var schema: SchemaValue {
            switch self {
            case .name: .described("The field name, templated.", ref: "template")
            case .value: .described("A text field, templated.", ref: "template")
            case .file: .described("A file streamed from disk, relative to the suite file.", ref: "filePath")
            case .data:
                .described("Inline content, templated; sent like a file when it has a filename.", ref: "template")
            case .filename:
                .described(
                    "The filename sent (file and data parts; a file part defaults to the file's own name).",
                    ref: "template")
            case .contentType:
                .described(
                    "The part's Content-Type (a file part defaults to the type of its extension).", ref: "template")
            case .headers: .described("More header fields for the part.", ref: "headers")
            }
        }

        /// The definition of a multipart part: a name and one content key; a value part has no filename.
        static var definition: SchemaValue {
            .described(
                "One part of a multipart body.",
                [
                    "type": "object", "additionalProperties": false, "required": ["name"], "properties": properties,
                    "oneOf": .array(allCases.filter(\.isContent).map { ["required": [.string($0.rawValue)]] }),
                    "if": ["required": ["value"]], "then": ["properties": ["filename": false]],
                ])
        }
    }

    /// The key of `xml:`'s file form, `{file: path}`.
    enum XMLKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case file

        var schema: SchemaValue { .ref("filePath") }
    }

    /// The keys of a multipart part, as written.
    static let multipartPartKeys = PartKey.names

    // MARK: - Body keys

    /// The body a request's body key (`json`, `form`, `body`, `bodyFile`, `multipart`, `plist` or `xml`) gives.
    static func parse(_ entry: MapEntry, in context: SuiteParseContext) -> BodySpec? {
        switch RequestParser.Key(named: entry.key) {
        case .json:
            return .json(context.templateValue(entry.value))
        case .form:
            guard context.isMapping(entry.value) else {
                context.typeError(expected: "a map", for: "form", found: entry.value)
                return nil
            }
            return .form(context.templateValue(entry.value))
        case .body:
            return context.template(entry.value, for: "body").map(BodySpec.raw)
        case .multipart:
            return multipart(entry.value, in: context).map(BodySpec.multipart)
        case .plist:
            return plist(entry.value, in: context)
        case .xml:
            return xml(entry.value, in: context)
        default:
            guard let path = context.text(entry.value, for: "bodyFile"),
                let absolute = context.checkBodyFile(path, at: entry.value)
            else { return nil }
            return .file(absolutePath: absolute)
        }
    }

    // MARK: - Multipart

    /// `multipart:` a list of parts, each `{name, value}`, `{name, file, filename?, contentType?}` or
    /// `{name, data, filename?, contentType?}`, with optional `headers`.
    static func multipart(_ node: YAMLNode, in context: SuiteParseContext) -> [MultipartPartSpec]? {
        guard let items = context.sequence(node, for: "multipart") else { return nil }
        if items.isEmpty {
            context.error("'multipart' needs at least one part", at: node)
            return nil
        }
        var parts: [MultipartPartSpec] = []
        var valid = true
        for item in items {
            if let part = Self.part(item, in: context) {
                parts.append(part)
            } else {
                valid = false
            }
        }
        return valid ? parts : nil
    }

    /// One part of `multipart:`.
    private static func part(_ node: YAMLNode, in context: SuiteParseContext) -> MultipartPartSpec? {
        guard let entries = context.mapping(node, for: "multipart part") else { return nil }
        context.checkKeys(entries, of: PartKey.self, in: "multipart part")
        let at = context.location(of: node)
        let contents = entries.filter { PartKey(named: $0.key)?.isContent == true }
        guard let nameEntry = entries[PartKey.name] else {
            context.error("a multipart part needs a 'name'", at: at)
            return nil
        }
        guard contents.count == 1, let contentEntry = contents.first else {
            if contents.isEmpty {
                context.error("a multipart part needs one of 'value', 'file' or 'data'", at: at)
            } else {
                context.error(
                    "a multipart part takes one of 'value', 'file' or 'data'; found "
                        + contents.map { "'\($0.key)'" }.joined(separator: " and "), at: contents[1].keyNode)
            }
            return nil
        }
        guard let name = context.template(nameEntry.value, for: "name") else { return nil }
        let content: MultipartPartSpec.Content
        switch PartKey(named: contentEntry.key) {
        case .value:
            guard let value = context.template(contentEntry.value, for: "value") else { return nil }
            content = .value(value)
        case .data:
            guard let data = context.template(contentEntry.value, for: "data") else { return nil }
            content = .data(data)
        default:
            guard let path = context.text(contentEntry.value, for: "file"),
                let absolute = context.checkBodyFile(path, at: contentEntry.value, for: "file")
            else { return nil }
            content = .file(absolutePath: absolute)
        }
        var part = MultipartPartSpec(name: name, content: content, location: at)
        if let entry = entries[PartKey.filename] {
            if case .value = content {
                context.error("'filename' applies to 'file' and 'data' parts", at: entry.keyNode)
            }
            part.filename = context.template(entry.value, for: "filename")
        }
        if let entry = entries[PartKey.contentType] {
            part.contentType = context.template(entry.value, for: "contentType")
        }
        if let entry = entries[PartKey.headers] { part.headers = RequestParser.headers(entry.value, in: context) }
        return part
    }

    // MARK: - Property lists and XML

    /// `plist:` any value but null (property lists have no null); XML format unless `plistFormat` says otherwise.
    static func plist(_ node: YAMLNode, in context: SuiteParseContext) -> BodySpec? {
        let value = context.templateValue(node)
        if let path = firstNull(in: value) {
            context.error("a property list cannot hold null (at \(path))", at: node)
            return nil
        }
        return .plist(value, format: .xml)
    }

    /// `plistFormat: xml | binary`.
    static func plistFormat(_ node: YAMLNode, in context: SuiteParseContext) -> PropertyListFormat? {
        guard let text = context.text(node, for: "plistFormat") else { return nil }
        guard let format = PropertyListFormat(rawValue: text) else {
            context.error(
                "unknown plistFormat '\(text)'; use xml or binary"
                    + Suggestion.didYouMean(text, in: PropertyListFormat.allCases.map(\.rawValue)), at: node)
            return nil
        }
        return format
    }

    /// `xml:` the document as text, or `{file: path}` for a file streamed from disk.
    static func xml(_ node: YAMLNode, in context: SuiteParseContext) -> BodySpec? {
        guard context.isMapping(node) else { return context.template(node, for: "xml").map(BodySpec.xml) }
        guard let entries = context.mapping(node, for: "xml") else { return nil }
        context.checkKeys(entries, of: XMLKey.self, in: "xml")
        guard let entry = entries[XMLKey.file] else {
            context.error("'xml' takes the document as text, or {file: path}", at: node)
            return nil
        }
        guard let path = context.text(entry.value, for: "file"),
            let absolute = context.checkBodyFile(path, at: entry.value, for: "file")
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
