import APITestJSON
import APITestOpenAPI
import APITestSupport
import Foundation
import Yams

/// The tests' reader: files given as text (by absolute path), else from the disk; `.json` files through apitest's
/// JSON parser with a scanner that finds pointers in the text, others through Yams with its marks. Counts reads.
final class TestReader: OpenAPIFileReader, @unchecked Sendable {
    private let lock = NSLock()
    private let texts: [String: String]
    private var reads: [String] = []

    /// A reader of `files` (absolute path → text) and of the disk.
    init(_ files: [String: String] = [:]) {
        self.texts = files
    }

    /// The paths read, in order.
    var paths: [String] {
        lock.withLock { reads }
    }

    func read(_ path: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
        lock.withLock { reads.append(path) }
        let text: String
        if let given = texts[path] {
            text = given
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw OpenAPIReadError(kind: .missing, message: "no such file")
            }
            guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path),
                let decoded = String(data: data, encoding: .utf8)
            else { throw OpenAPIReadError(kind: .unreadable, message: "cannot read the file") }
            text = decoded
        }
        return path.hasSuffix(".json") ? try Self.json(text, path: path) : try Self.yaml(text, path: path)
    }

    // MARK: - JSON

    static func json(_ text: String, path: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
        let bytes = Array(text.utf8)
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw OpenAPIReadError(
                kind: .syntax(SourceLocation(file: path, line: 1, column: 1)), message: "\(error)")
        }
        return OpenAPISourceFile(value: value) { tokens in
            let offset = JSONTextLocator(bytes: bytes).offset(of: tokens) ?? 0
            return JSONTextLocator.location(of: offset, in: bytes, file: path)
        }
    }

    // MARK: - YAML

    static func yaml(_ text: String, path: String) throws(OpenAPIReadError) -> OpenAPISourceFile {
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else {
                return OpenAPISourceFile(value: .null) { _ in SourceLocation(file: path, line: 1, column: 1) }
            }
            root = composed
        } catch let error as YamlError {
            var location = SourceLocation(file: path, line: 1, column: 1)
            switch error {
            case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
                location = SourceLocation(file: path, line: mark.line, column: mark.column)
            default:
                break
            }
            throw OpenAPIReadError(kind: .syntax(location), message: "\(error)")
        } catch {
            throw OpenAPIReadError(kind: .syntax(SourceLocation(file: path, line: 1, column: 1)), message: "\(error)")
        }
        var marks: [[String]: SourceLocation] = [:]
        let value = convert(root, pointer: [], path: path, marks: &marks)
        let located = marks
        return OpenAPISourceFile(value: value) { tokens in
            located[tokens] ?? SourceLocation(file: path, line: 1, column: 1)
        }
    }

    private static func convert(
        _ node: Node, pointer: [String], path: String, marks: inout [[String]: SourceLocation]
    ) -> JSONValue {
        if let mark = node.mark { marks[pointer] = SourceLocation(file: path, line: mark.line, column: mark.column) }
        switch node {
        case .mapping(let mapping):
            var members: [JSONObject.Member] = []
            for (key, value) in mapping {
                let name = key.string ?? "\(key)"
                members.append((name, convert(value, pointer: pointer + [name], path: path, marks: &marks)))
            }
            return .object(JSONObject(members))
        case .sequence(let sequence):
            return .array(
                sequence.enumerated().map { convert($1, pointer: pointer + [String($0)], path: path, marks: &marks) })
        case .scalar:
            switch Tag.Name(rawValue: node.tag.description) {
            case .null: return .null
            case .bool: return node.bool.map(JSONValue.bool) ?? .string(node.string ?? "")
            case .int: return node.int.map { .integer(Int64($0)) } ?? .string(node.string ?? "")
            case .float: return node.float.map(JSONValue.double) ?? .string(node.string ?? "")
            default: return .string(node.string ?? "")
            }
        default:
            return .null
        }
    }
}

/// Finds where the value at a JSON pointer starts in JSON text, without building values.
struct JSONTextLocator {
    let bytes: [UInt8]

    /// The byte offset of the value at `tokens`; nil when there is none.
    func offset(of tokens: [String]) -> Int? {
        var index = skipSpace(0)
        for token in tokens {
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "{") {
                index = skipSpace(index + 1)
                var found = false
                while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    let keyEnd = skipString(index)
                    let key = (try? JSONParser.parse(bytes[index..<keyEnd]))?.stringValue
                    index = skipSpace(keyEnd)
                    index = skipSpace(index + 1) // the colon
                    if key == token {
                        found = true
                        break
                    }
                    index = skipSpace(skipValue(index))
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
                }
                guard found else { return nil }
            } else if bytes[index] == UInt8(ascii: "[") {
                guard let position = Int(token), position >= 0 else { return nil }
                index = skipSpace(index + 1)
                for _ in 0..<position {
                    guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return nil }
                    index = skipSpace(skipValue(index))
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                    index = skipSpace(index + 1)
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { return nil }
            } else {
                return nil
            }
        }
        return index
    }

    private func skipSpace(_ start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        return index
    }

    /// The offset after the string starting at `start` (its opening quote).
    private func skipString(_ start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return index
    }

    /// The offset after the value starting at `start`.
    private func skipValue(_ start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = skipString(index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[index])
            {
                index += 1
            }
            return index
        }
    }

    /// The line and column (1-based, in bytes) of `offset`.
    static func location(of offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return SourceLocation(file: file, line: line, column: offset - lineStart + 1)
    }
}
