import APITestSuiteWriting
import APITestSupport
import Foundation

extension CurlTranslation {
    // MARK: - Multipart parts

    /// `-F name=content[;type=…][;filename=…][;headers=…]` (`@file` a file, `<file` a file's content as a field,
    /// `"…"` a quoted value) or `--form-string name=value` (taken as it is). The text is suite text (references as
    /// `{{ env.NAME }}`, the rest escaped), so a placeholder is a reference; file names are read back unescaped.
    mutating func formPart(
        _ word: ShellWord, at position: Int, literal: Bool
    ) throws(CurlImporter.Failure) -> SuiteDocument.Part {
        let spelling = literal ? "--form-string" : "-F"
        let whole = try text(word, at: position)
        guard let equals = whole.firstIndex(of: "="), equals != whole.startIndex else {
            throw CurlImporter.Failure(location: locate(position), message: "\(spelling) \(word) needs name=content")
        }
        let name = String(whole[..<equals])
        if name.contains(Self.reference) {
            throw CurlImporter.Failure(
                location: locate(position), message: "\(spelling) \(word): a part's name cannot hold a variable")
        }
        let rest = String(whole[whole.index(after: equals)...])
        if literal { return SuiteDocument.Part(name: name, content: .value(rest)) }

        let (value, parameters) = Self.splitParameters(rest)
        var filename: String?
        var contentType: String?
        var headers: [SuiteDocument.Header] = []
        for (key, parameter) in parameters {
            switch key {
            case "type": contentType = parameter
            case "filename": filename = parameter
            case "headers":
                if let colon = parameter.firstIndex(of: ":"), !parameter.hasPrefix("@") {
                    headers.append(
                        SuiteDocument.Header(
                            String(parameter[..<colon]),
                            String(parameter[parameter.index(after: colon)...].drop { $0 == " " })))
                } else {
                    throw CurlImporter.Failure(
                        location: locate(position),
                        message: "\(spelling) \(word): headers=\(parameter) is not supported (give one header)")
                }
            default:
                throw CurlImporter.Failure(
                    location: locate(position),
                    message: "\(spelling) \(word): the parameter '\(key)' is not supported (type, filename, headers)")
            }
        }
        var part: SuiteDocument.Part
        if value.hasPrefix("@") {
            let path = TemplateLiteral.unescaped(String(value.dropFirst()))
            if path.contains(Self.reference) || path.contains(",") || path == "-" {
                throw CurlImporter.Failure(
                    location: locate(position),
                    message: "\(spelling) \(word): only one file named in full can be a part's content")
            }
            let sent = filename ?? TemplateLiteral.escaped((path as NSString).lastPathComponent)
            part = SuiteDocument.Part(
                name: name, content: .file(suitePath(of: path)), filename: sent,
                contentType: contentType ?? Self.contentType(forFilename: sent))
            if isOutsideWorkingDirectory(path) {
                note(position, "the suite sends \(fileInWords(path)) as the part '\(name)', as curl does")
            }
        } else if value.hasPrefix("<") {
            let path = TemplateLiteral.unescaped(String(value.dropFirst()))
            if path.contains(Self.reference) || path == "-" {
                throw CurlImporter.Failure(
                    location: locate(position), message: "\(spelling) \(word): the file must be named in full")
            }
            let bytes = try contents(of: path, at: position)
            guard let content = String(data: bytes, encoding: .utf8), !content.contains("\0") else {
                throw CurlImporter.Failure(
                    location: locate(position),
                    message: "\(spelling) \(word): the file is not UTF-8 text, which a field's content must be here")
            }
            let text = TemplateLiteral.escaped(content)
            notes.append(inlinedNote(path, at: position, because: "curl sends it as the value of the field '\(name)'"))
            // A part without a filename is a field (no Content-Type unless ;type= gives one), as curl sends it.
            part = SuiteDocument.Part(
                name: name, content: filename == nil ? .value(text) : .data(text), filename: filename,
                contentType: contentType)
        } else {
            part = SuiteDocument.Part(name: name, content: .value(value), filename: nil, contentType: contentType)
            if let filename { part = SuiteDocument.Part(name: name, content: .data(value), filename: filename) }
            part.contentType = contentType
        }
        part.headers = headers
        return part
    }

    /// The value of a `-F` content and its `;key=value` parameters: a value in double quotes may hold `;` (with `\"`
    /// and `\\` escapes, as curl's `get_param_word`; another backslash stays, so that no `{{` appears that the text
    /// did not hold); otherwise it ends at the first `;`.
    static func splitParameters(_ text: String) -> (String, [(String, String)]) {
        var scalars = Substring(text)
        func quoted() -> String? {
            guard scalars.first == "\"" else { return nil }
            var result = ""
            var index = scalars.index(after: scalars.startIndex)
            while index < scalars.endIndex {
                let character = scalars[index]
                let next = scalars.index(after: index)
                // curl removes a backslash before `"` and `\` only; before any other character it stays.
                if character == "\\", next < scalars.endIndex, scalars[next] == "\"" || scalars[next] == "\\" {
                    index = next
                    result.append(scalars[index])
                } else if character == "\"" {
                    scalars = scalars[scalars.index(after: index)...]
                    return result
                } else {
                    result.append(character)
                }
                index = scalars.index(after: index)
            }
            return nil
        }
        func plain() -> String {
            let end = scalars.firstIndex(of: ";") ?? scalars.endIndex
            defer { scalars = scalars[end...] }
            return String(scalars[..<end])
        }
        let value = quoted() ?? plain()
        var parameters: [(String, String)] = []
        while scalars.first == ";" {
            scalars = scalars.dropFirst().drop { $0 == " " }
            let equals = scalars.firstIndex(of: "=") ?? scalars.endIndex
            let key = String(scalars[..<equals]).lowercased()
            scalars = equals < scalars.endIndex ? scalars[scalars.index(after: equals)...] : scalars[equals...]
            parameters.append((key, quoted() ?? plain()))
        }
        return (value, parameters)
    }

    /// The content type curl gives a file part by the extension of the name it sends (lib/mime.c), else
    /// `application/octet-stream`.
    static func contentType(forFilename name: String) -> String {
        let types = [
            ".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png",
            ".svg": "image/svg+xml", ".txt": "text/plain", ".htm": "text/html", ".html": "text/html",
            ".pdf": "application/pdf", ".xml": "application/xml",
        ]
        let lower = name.lowercased()
        for (suffix, type) in types where lower.hasSuffix(suffix) { return type }
        return "application/octet-stream"
    }
}
