import APITestHTTP
import APITestJSON

/// The text of the request bodies that are neither JSON nor a form: `multipart/form-data` and XML.
enum BodyText {
    /// The boundary of every multipart body (no generated text contains it: its values are letters, digits and the
    /// characters of ``ValueGenerator``'s alphabet, and a pattern's samples are at most 4096 characters).
    static let boundary = "apitest-fuzz-7d3f0c5e9b"

    /// `value` as `multipart/form-data`: a part per member of an object (an array of primitives a part per item, an
    /// object or nested array one `application/json` part), the members in `fileParts` as files
    /// (`filename="NAME"`, `application/octet-stream`); a value that is no object one part named `value`.
    static func multipart(_ value: JSONValue, fileParts: Set<String>) -> String {
        var parts: [(name: String, value: JSONValue)] = []
        if case .object(let object) = value {
            for (name, member) in object {
                if case .array(let items) = member,
                    !items.contains(where: { $0.arrayValue != nil || $0.objectValue != nil })
                {
                    parts += items.map { (name, $0) }
                } else {
                    parts.append((name, member))
                }
            }
        } else {
            parts.append(("value", value))
        }
        var text = ""
        for (name, member) in parts {
            text += "--\(boundary)\r\n"
            let quoted = MultipartFormData.escape(name)
            if fileParts.contains(name) {
                text += "Content-Disposition: form-data; name=\"\(quoted)\"; filename=\"\(quoted)\"\r\n"
                text += "Content-Type: application/octet-stream\r\n\r\n"
            } else if member.objectValue != nil || member.arrayValue != nil {
                text += "Content-Disposition: form-data; name=\"\(quoted)\"\r\n"
                text += "Content-Type: application/json\r\n\r\n"
            } else {
                text += "Content-Disposition: form-data; name=\"\(quoted)\"\r\n\r\n"
            }
            text +=
                member.objectValue != nil || member.arrayValue != nil
                ? JSONWriter.string(member) : ParameterText.primitive(member)
            text += "\r\n"
        }
        return text + "--\(boundary)--\r\n"
    }

    /// `value` as XML: a string as it is (a documented example is written as the document's XML text), else an
    /// element `root` holding an element per member of an object (an array's items each an element of its name),
    /// a primitive as text.
    static func xml(_ value: JSONValue, root: String) -> String {
        if case .string(let text) = value, text.trimmingPrefix(while: \.isWhitespace).hasPrefix("<") { return text }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + element(root, value, depth: 0)
    }

    private static func element(_ name: String, _ value: JSONValue, depth: Int) -> String {
        let tag = elementName(name)
        switch value {
        case .object(let object):
            guard depth < 16 else { return "<\(tag)/>" }
            var inner = ""
            for (key, member) in object {
                if case .array(let items) = member {
                    inner += items.map { element(key, $0, depth: depth + 1) }.joined()
                } else {
                    inner += element(key, member, depth: depth + 1)
                }
            }
            return "<\(tag)>\(inner)</\(tag)>"
        case .array(let items):
            guard depth < 16 else { return "<\(tag)/>" }
            return "<\(tag)>" + items.map { element("item", $0, depth: depth + 1) }.joined() + "</\(tag)>"
        case .null:
            return "<\(tag)/>"
        default:
            return "<\(tag)>\(escaped(ParameterText.primitive(value)))</\(tag)>"
        }
    }

    /// A name XML allows: letters, digits, `-`, `_` and `.`, not starting with a digit, `-` or `.` (others `_`).
    static func elementName(_ name: String) -> String {
        var text = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        if text.isEmpty || text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true { text = "_" + text }
        return text
    }

    /// Text with `&`, `<`, `>` as references, and the characters XML 1.0 does not allow left out.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
