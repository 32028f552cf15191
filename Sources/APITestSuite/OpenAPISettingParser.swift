import APITestSupport
import Foundation

/// `openapi:`, in a suite or an included settings file: a path, or a map of `file`, `server`, `strict` and `ignore`.
enum OpenAPISettingParser {
    /// The keys of the map form.
    static let keys = ["file", "server", "strict", "ignore"]

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
        context.checkKeys(entries, allowed: keys, in: "openapi")
        guard let file = entries[key: "file"] else {
            context.error("'openapi' needs 'file': the path of the OpenAPI document", at: node)
            return nil
        }
        guard let path = context.text(file.value, for: "file"),
            let absolute = context.checkBodyFile(path, at: file.value, for: "openapi.file")
        else { return nil }
        var setting = OpenAPISetting(path: path, absolutePath: absolute, location: at)
        if let server = entries[key: "server"], let text = context.text(server.value, for: "server") {
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
        if let strict = entries[key: "strict"] {
            setting.strict = context.bool(strict.value, for: "strict") ?? false
        }
        if let ignore = entries[key: "ignore"], let items = context.sequence(ignore.value, for: "ignore") {
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
