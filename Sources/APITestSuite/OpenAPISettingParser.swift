import APITestSupport
import APITestYAML
import Foundation

/// `openapi:`, in a suite or an included settings file: a path, or a map of `file`, `server`, `strict` and `ignore`.
enum OpenAPISettingParser {
    /// The keys of the map form.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case file, server, strict, ignore

        var schema: SchemaValue {
            switch self {
            case .file: .described("The OpenAPI document, relative to this file.", ref: "filePath")
            case .server:
                .described(
                    "The base URL or path of the API under test, instead of the document's servers; only its path is "
                        + "used. No placeholders.",
                    ["type": "string", "pattern": #"^(?:/|[A-Za-z][A-Za-z0-9+.-]*://)(?!.*\{\{)"#])
            case .strict:
                .described(
                    "Requests that break the contract or match no operation fail the step (default: warnings).",
                    ["type": "boolean"])
            case .ignore:
                .described(
                    "Operations left out of checks and coverage: an operationId, 'METHOD /path/{template}' or "
                        + "'/path/{template}'.", ["type": "array", "items": .ref("text")])
            }
        }

        /// The definition of `openapi:`: a path, or the map form.
        static var definition: SchemaValue {
            .described(
                "The OpenAPI 3.0/3.1 document (YAML or JSON, relative to this file) that every response is checked "
                    + "against (docs/openapi.md): a path, or a map.",
                [
                    "anyOf": [
                        .ref("filePath"),
                        [
                            "type": "object", "additionalProperties": false, "required": ["file"],
                            "properties": properties,
                        ],
                    ]
                ])
        }
    }

    /// The keys of the map form, as written.
    static let keys = Key.names

    /// The setting, its file checked to be a readable regular file; `nil` after reporting a problem.
    static func parse(_ entry: MapEntry, in context: SuiteParseContext) -> OpenAPISetting? {
        let node = entry.value
        let at = context.location(of: entry.keyNode)
        if context.scalar(node) != nil {
            guard let path = context.text(node, for: "openapi"),
                let absolute = context.checkBodyFile(path, at: node, for: "openapi")
            else { return nil }
            return OpenAPISetting(path: path, absolutePath: absolute, location: at)
        }
        guard let entries = context.mapping(node, for: "openapi") else { return nil }
        context.checkKeys(entries, of: Key.self, in: "openapi")
        guard let file = entries[Key.file] else {
            context.error("'openapi' needs 'file': the path of the OpenAPI document", at: node)
            return nil
        }
        guard let path = context.text(file.value, for: "file"),
            let absolute = context.checkBodyFile(path, at: file.value, for: "openapi.file")
        else { return nil }
        var setting = OpenAPISetting(path: path, absolutePath: absolute, location: at)
        if let server = entries[Key.server], let text = context.text(server.value, for: "server") {
            if text.contains("{{") {
                context.error(
                    "'openapi.server' cannot use placeholders: the contract is read when the suite loads",
                    at: server.value)
            } else if !(text.hasPrefix("/") || hasScheme(text)) {
                context.error(
                    "'openapi.server' must be a URL (https://api.example.com/v2) or a path starting with '/'",
                    at: server.value)
            } else {
                setting.server = text
            }
        }
        if let strict = entries[Key.strict] {
            setting.strict = context.bool(strict.value, for: "strict") ?? false
        }
        if let ignore = entries[Key.ignore], let items = context.sequence(ignore.value, for: "ignore") {
            setting.ignore = items.compactMap { context.text($0, for: "ignore") }
        }
        return setting
    }

    /// Whether `text` starts with a URL scheme and `://` (`https://`).
    static func hasScheme(_ text: String) -> Bool {
        guard let separator = text.range(of: "://"), let first = text.first, first.isASCII, first.isLetter else {
            return false
        }
        return text[..<separator.lowerBound].allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0))
        }
    }
}
