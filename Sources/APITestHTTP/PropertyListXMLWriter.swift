import Foundation

/// Writes Apple's XML property list format (the `PropertyList-1.0` DTD), members in document order.
enum PropertyListXMLWriter {
    /// The XML property list of `value`.
    ///
    /// XML 1.0 cannot hold the control characters other than tab, line feed and carriage return (nor U+FFFE and
    /// U+FFFF): a string or key with one is an error naming its place, where Foundation's writer wrote a document no
    /// parser reads. A binary property list holds them.
    static func bytes(_ value: PropertyListBody.Value) throws(HTTPError) -> [UInt8] {
        var output: [UInt8] = []
        output.append(
            contentsOf: """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">

                """.utf8)
        var path = ["$"]
        try write(value, depth: 0, path: &path, into: &output)
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    // MARK: - Values

    private static func write(
        _ value: PropertyListBody.Value, depth: Int, path: inout [String], into output: inout [UInt8]
    ) throws(HTTPError) {
        indent(depth, into: &output)
        switch value {
        case .string(let text):
            output.append(contentsOf: "<string>".utf8)
            try escape(text, path: path, into: &output)
            output.append(contentsOf: "</string>\n".utf8)
        case .integer(let number):
            element("integer", String(number), into: &output)
        case .unsigned(let number):
            element("integer", String(number), into: &output)
        case .real(let number):
            element("real", realText(number), into: &output)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
        case .array(let items):
            guard !items.isEmpty else { return output.append(contentsOf: "<array/>\n".utf8) }
            output.append(contentsOf: "<array>\n".utf8)
            for (index, item) in items.enumerated() {
                path.append("[\(index)]")
                try write(item, depth: depth + 1, path: &path, into: &output)
                path.removeLast()
            }
            indent(depth, into: &output)
            output.append(contentsOf: "</array>\n".utf8)
        case .dictionary(let members):
            guard !members.isEmpty else { return output.append(contentsOf: "<dict/>\n".utf8) }
            output.append(contentsOf: "<dict>\n".utf8)
            for (key, item) in members {
                path.append(".\(key)")
                indent(depth + 1, into: &output)
                output.append(contentsOf: "<key>".utf8)
                try escape(key, path: path, into: &output)
                output.append(contentsOf: "</key>\n".utf8)
                try write(item, depth: depth + 1, path: &path, into: &output)
                path.removeLast()
            }
            indent(depth, into: &output)
            output.append(contentsOf: "</dict>\n".utf8)
        }
    }

    /// `<name>text</name>` and a line feed; `text` needs no escaping.
    private static func element(_ name: String, _ text: String, into output: inout [UInt8]) {
        output.append(contentsOf: "<\(name)>\(text)</\(name)>\n".utf8)
    }

    /// A tab per level, as Apple's writer indents.
    private static func indent(_ depth: Int, into output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
    }

    /// A real as plist readers parse it (`strtod`, Python's `float`): the shortest text that reads back the same
    /// double; infinities and NaN (never from JSON) as Apple writes them.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "+inf" }
        return "\(number)"
    }

    // MARK: - Escaping

    /// `text` with `&`, `<` and `>` escaped; a character XML 1.0 cannot hold is an error at `path`.
    private static func escape(_ text: String, path: [String], into output: inout [UInt8]) throws(HTTPError) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output.append(contentsOf: "&amp;".utf8)
            case 0x3C: output.append(contentsOf: "&lt;".utf8)
            case 0x3E: output.append(contentsOf: "&gt;".utf8)
            case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                output.append(contentsOf: String(scalar).utf8)
            default:
                throw HTTPError(.propertyListCharacter(path: path.joined(), scalar: scalar.value))
            }
        }
    }
}
