// The demo server's own small JSON model: ordered objects and numbers kept as their source text, so that what
// /echo parses is echoed back exactly as it was sent.

// MARK: - JSON

/// A JSON value with ordered object members and numbers kept as literal text.
indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, as its JSON literal text (for example `12`, `-0.5`, `1e300`).
    case number(String)
    case string(String)
    case array([JSON])
    case object([Member])

    /// One member of a JSON object.
    struct Member: Sendable, Equatable {
        var key: String
        var value: JSON
    }

    /// An integer number.
    static func int<T: BinaryInteger>(_ value: T) -> JSON { .number(String(value)) }

    /// A string, or `null` when the optional is empty.
    static func string(_ value: String?) -> JSON { value.map { JSON.string($0) } ?? .null }

    /// An object from ordered key/value pairs.
    static func object(_ pairs: [(String, JSON)]) -> JSON {
        .object(pairs.map { Member(key: $0.0, value: $0.1) })
    }

    /// The value of the first member named `key` when this is an object.
    subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

// MARK: - Literals

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(String(value)) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(nilLiteral: ()) { self = .null }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(elements.map { Member(key: $0.0, value: $0.1) })
    }
}

// MARK: - Serialization

extension JSON {
    /// The compact JSON text of this value, as UTF-8 bytes.
    var serializedBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// The compact JSON text of this value.
    var serialized: String { String(decoding: serializedBytes, as: UTF8.self) }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let value): out.append(contentsOf: Array((value ? "true" : "false").utf8))
        case .number(let text): out.append(contentsOf: Array(text.utf8))
        case .string(let text): JSON.writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
