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
        let locator = JSONTextLocator(bytes: bytes)
        return OpenAPISourceFile(value: value) { tokens in
            locator.location(of: tokens, file: path)
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

/// Finds where the value at a JSON pointer starts in JSON text, without building values: each container is scanned
/// once, the first time a pointer goes through it, and its members' offsets kept (a large document is located in
/// time proportional to its size, not to its size per lookup).
final class JSONTextLocator: @unchecked Sendable {
    private let bytes: [UInt8]
    private let lock = NSLock()
    /// Container offset → member name (or element index) → the member's value offset.
    private var members: [Int: [String: Int]] = [:]
    /// The offset of each line's first byte.
    private let lineStarts: [Int]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] == 0x0A { starts.append(index + 1) }
        }
        self.lineStarts = starts
    }

    /// The line and column (1-based, in bytes) of the value at `tokens`; the file's start when there is none.
    func location(of tokens: [String], file: String) -> SourceLocation {
        let offset = self.offset(of: tokens) ?? 0
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(file: file, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The byte offset of the value at `tokens`; nil when there is none.
    func offset(of tokens: [String]) -> Int? {
        lock.withLock {
            bytes.withUnsafeBufferPointer { buffer in
                var scanner = Scanner(bytes: buffer)
                var index = scanner.skipSpace(0)
                for token in tokens {
                    guard index < buffer.count else { return nil }
                    if members[index] == nil { members[index] = scanner.members(of: index) }
                    guard let next = members[index]?[token] else { return nil }
                    index = next
                }
                return index
            }
        }
    }

    /// Skips over JSON text.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>

        /// The offsets of the members (or elements) of the container at `start`.
        mutating func members(of start: Int) -> [String: Int] {
            var result: [String: Int] = [:]
            if bytes[start] == UInt8(ascii: "{") {
                var index = skipSpace(start + 1)
                while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    let keyEnd = skipString(index)
                    let key = (try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[index..<keyEnd])))?.stringValue
                    index = skipSpace(skipSpace(keyEnd) + 1) // the colon
                    result[key ?? ""] = index
                    index = skipSpace(skipValue(index))
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index = skipSpace(index + 1) }
                }
            } else if bytes[start] == UInt8(ascii: "[") {
                var index = skipSpace(start + 1)
                var position = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    result[String(position)] = index
                    position += 1
                    index = skipSpace(skipValue(index))
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { break }
                    index = skipSpace(index + 1)
                }
            }
            return result
        }

        func skipSpace(_ start: Int) -> Int {
            var index = start
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                    || bytes[index] == 0x09
            {
                index += 1
            }
            return index
        }

        /// The offset after the string starting at `start` (its opening quote).
        func skipString(_ start: Int) -> Int {
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
        func skipValue(_ start: Int) -> Int {
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
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
                    bytes[index] != UInt8(ascii: "]")
                {
                    index += 1
                }
                return index
            }
        }
    }
}
