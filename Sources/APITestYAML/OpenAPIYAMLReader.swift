import APITestJSON
package import APITestOpenAPI
import APITestSupport
import Foundation
import Synchronization

/// Reads the files of an OpenAPI document through the suite layer's YAML (a JSON file is read as the YAML it also
/// is): values typed by the YAML 1.2 core schema, map keys as text (`200:` is `"200"`), every JSON pointer located
/// in its file. It keeps the text of each file it read, for the source lines of diagnostics.
package final class OpenAPIYAMLReader: OpenAPIFileReader {
    /// The text of every file read, by absolute path.
    private let texts = Mutex<[String: String]>([:])

    package init() {}

    /// The texts of the files read so far, by absolute path.
    package var sources: [String: String] { texts.withLock { $0 } }

    package func read(_ absolutePath: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
        // Looked at before it is opened, as every file a suite names: a `$ref` to a FIFO or a device must not block.
        switch ReadableFile.problem(at: absolutePath) {
        case .missing?: throw OpenAPIReadError(kind: .missing, message: "no such file")
        case .directory?: throw OpenAPIReadError(kind: .unreadable, message: "a directory, not a file")
        case .notRegular?:
            throw OpenAPIReadError(kind: .unreadable, message: "not a regular file (a FIFO, socket or device)")
        case .unreadable?: throw OpenAPIReadError(kind: .unreadable, message: "cannot be read")
        case nil: break
        }
        guard let data = FileManager.default.contents(atPath: absolutePath) else {
            throw OpenAPIReadError(kind: .unreadable, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw OpenAPIReadError(kind: .unreadable, message: "not UTF-8 text")
        }
        texts.withLock { $0[absolutePath] = text }
        // JSON's escaped surrogate pairs, which libyaml refuses, as YAML's escape; positions as written.
        let rewrite = Self.isJSON(text) ? JSONSurrogateEscapes(text) : nil
        let written = { @Sendable (line: Int, column: Int) -> SourceLocation in
            SourceLocation(
                file: absolutePath, line: line, column: rewrite?.originalColumn(line: line, column: column) ?? column)
        }
        let composed: (document: YAMLDocument, root: YAMLNode?)
        do {
            composed = try YAMLComposer.compose(rewrite?.text ?? text)
        } catch {
            let diagnostic = YAMLErrorDiagnostic.make(
                error, text: SourceText(file: absolutePath, text: rewrite?.text ?? text))
            let location = written(diagnostic.location.line, diagnostic.location.column)
            throw OpenAPIReadError(
                kind: .syntax(location), message: diagnostic.message,
                pointer: Self.jsonPointer(at: location, in: SourceText(file: absolutePath, text: text), text: text))
        }
        let start = SourceLocation(file: absolutePath, line: 1, column: 1)
        guard let root = composed.root else { return OpenAPISourceFile(value: .null, locate: { _ in start }) }
        let document = composed.document
        let value: JSONValue
        do {
            value = try document.jsonValue(of: root)
        } catch {
            let (node, message): (YAMLNode, String)
            switch error {
            case .complexKey(let key): (node, message) = (key, "a map key must be a scalar")
            case .tooDeep(let deep):
                (node, message) = (deep, "nested deeper than \(YAMLDocument.maximumJSONDepth) levels")
            case .aliasExpansion(let alias):
                (node, message) = (alias, "its aliases expand to far more values than the file holds")
            }
            let mark = document.mark(of: node)
            throw OpenAPIReadError(kind: .syntax(written(mark.line, mark.column)), message: message)
        }
        let locator = YAMLPointerLocator(document: document, root: root)
        return OpenAPISourceFile(value: value) { tokens in
            let mark = locator.document.mark(of: locator.node(at: tokens))
            return written(mark.line, mark.column)
        }
    }

    /// Whether `text` is a JSON document: its first character, after white space, is `{` or `[`.
    static func isJSON(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first(where: { !" \t\r\n\u{FEFF}".unicodeScalars.contains($0) }) else {
            return false
        }
        return first == "{" || first == "["
    }

    /// In a JSON document (its first character `{` or `[`), the JSON Pointer of the member or element that holds
    /// `location` in `text` (whose index is `source`), found by reading the JSON before it (``JSONParser/pointer(in:at:)``); nil for a YAML document,
    /// whose block structure that reading does not know.
    static func jsonPointer(at location: SourceLocation, in source: SourceText, text: String) -> [String]? {
        guard isJSON(text) else { return nil }
        let scalarOffset = source.offset(line: location.line, column: location.column)
        var byteOffset = 0
        for scalar in text.unicodeScalars.prefix(scalarOffset) { byteOffset += UTF8.width(scalar) }
        return JSONParser.pointer(in: Array(text.utf8), at: byteOffset)
    }
}
