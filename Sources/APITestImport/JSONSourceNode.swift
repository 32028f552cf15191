package import APITestJSON
import APITestSupport

/// A value of an imported JSON file with the path that leads to it, so that every structural problem names its place
/// (``JSONSourceError``). The accessors are as lenient as the tools that write these files: a scalar where text is
/// expected is read as its text, `null` counts as absent.
package struct JSONSourceNode: Sendable {
    /// The value.
    package var value: JSONValue
    /// Its path from the document's root: `item[2].request`, empty for the root.
    package var path: String
    /// The file, for errors.
    package var file: String

    /// The root of `file`'s document.
    package init(root value: JSONValue, file: String) {
        self.value = value
        self.path = ""
        self.file = file
    }

    /// A node at `path`.
    private init(value: JSONValue, path: String, file: String) {
        self.value = value
        self.path = path
        self.file = file
    }

    // MARK: - Navigation

    /// The member `key` of an object, nil when absent, null, or when this is not an object.
    package func member(_ key: String) -> JSONSourceNode? {
        guard case .object(let object) = value, let child = object[key], child != .null else { return nil }
        return JSONSourceNode(value: child, path: Self.join(path, key), file: file)
    }

    /// The first present member among `keys` (for names that changed between format versions).
    package func member(anyOf keys: String...) -> JSONSourceNode? {
        for key in keys { if let node = member(key) { return node } }
        return nil
    }

    /// The elements of an array; an error when this is not an array.
    package func elements() throws(JSONSourceError) -> [JSONSourceNode] {
        guard case .array(let items) = value else { throw error("expected a list, found \(describe(value))") }
        return items.enumerated().map { JSONSourceNode(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// The elements of an array, or this node alone when it is not an array (Postman accepts one event, one header
    /// where a list is expected).
    package func elementsOrSelf() -> [JSONSourceNode] {
        (try? elements()) ?? [self]
    }

    /// The members of an object, in document order; an error when this is not an object.
    package func members() throws(JSONSourceError) -> [(key: String, node: JSONSourceNode)] {
        guard case .object(let object) = value else { throw error("expected an object, found \(describe(value))") }
        return object.members.map {
            (key: $0.key, node: JSONSourceNode(value: $0.value, path: Self.join(path, $0.key), file: file))
        }
    }

    // MARK: - Scalars

    /// The value as text: a string as it is, a number or boolean as written; an error for containers.
    package func text() throws(JSONSourceError) -> String {
        switch value {
        case .string(let text): return text
        case .integer, .double, .number: return JSONWriter.string(value)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return ""
        case .array, .object: throw error("expected a string, found \(describe(value))")
        }
    }

    /// The member `key` as text, nil when absent.
    package func text(_ key: String) throws(JSONSourceError) -> String? {
        try member(key)?.text()
    }

    /// The member `key` as a boolean (`true`, or the text `true`); nil when absent.
    package func flag(_ key: String) -> Bool? {
        switch member(key)?.value {
        case .bool(let flag)?: return flag
        case .string(let text)?: return text == "true"
        default: return nil
        }
    }

    /// The member `key` as an integer, nil when absent or not a number.
    package func integer(_ key: String) -> Int? {
        switch member(key)?.value {
        case .integer(let number)?: return Int(exactly: number)
        case .double(let number)?: return Int(exactly: number)
        case .string(let text)?: return Int(text)
        default: return nil
        }
    }

    // MARK: - Errors

    /// An error at this node.
    package func error(_ message: String) -> JSONSourceError {
        JSONSourceError(file: file, location: path.isEmpty ? "the top level" : path, message: message)
    }

    /// "a number", "an object", ...: the value's type in an error message.
    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .double, .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// `parent.key`, or `parent["odd key"]` when the key is not an identifier.
    private static func join(_ parent: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
            }
        let step =
            plain
            ? key
            : "[\"" + key.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\\"") + "\"]"
        if parent.isEmpty { return step }
        return plain ? "\(parent).\(step)" : parent + step
    }
}

extension JSONSourceNode {
    /// The document of `file` whose bytes are `bytes`: a UTF-8 JSON text (a byte order mark is skipped); a syntax
    /// error is located by line and column.
    package static func parse(_ bytes: [UInt8], file: String) throws(JSONSourceError) -> JSONSourceNode {
        do {
            return JSONSourceNode(root: try JSONParser.parse(bytes), file: file)
        } catch {
            // The JSON Pointer beside the position finds the place in a minified file (every position on line 1).
            let pointer = error.pointer.isEmpty ? "" : ", at \(error.pointerText.shownAsPointer)"
            throw JSONSourceError(
                file: file, location: "line \(error.line), column \(error.column)\(pointer)",
                message: "not valid JSON: \(error.message)")
        }
    }
}
