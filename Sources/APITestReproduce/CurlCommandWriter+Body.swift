import APITestHTTP
import APITestSupport
import Foundation

// MARK: - Body

extension CurlCommandWriter {
    /// Writes the body: `--data-binary` with the exact bytes (or `@path` for a file, or `@-` fed by `printf` when the
    /// bytes hold NUL), `--form-string` and `-F` parts for a multipart form.
    mutating func writeBody(_ body: HTTPRequest.Body, _ other: HTTPRequest.Body) {
        switch (body, other) {
        case (.none, _):
            break
        case (.data(let data), .data(let otherData)):
            var sentData: [UInt8]?
            if case .data(let real)? = sent?.body { sentData = Array(real) }
            let parts = field(Array(data), Array(otherData), sent: sentData, "body")
            if data.contains(0) {
                writePipedBody(parts)
            } else {
                option("--data-binary", word(parts))
            }
        case (.file(let path), _):
            option("--data-binary", ShellWord("@" + path))
        case (.multipart(let form), .multipart(let otherForm)):
            var sentForm: MultipartFormData?
            if case .multipart(let real)? = sent?.body { sentForm = real }
            for (index, part) in form.parts.enumerated() {
                let otherPart = index < otherForm.parts.count ? otherForm.parts[index] : part
                let sentPart = sentForm.flatMap { index < $0.parts.count ? $0.parts[index] : nil }
                writePart(part, otherPart, sent: sentPart)
            }
        default:
            // Both renderings come from one spec, so their bodies have one kind.
            note("the body could not be written as curl options")
        }
    }

    /// A body with NUL bytes, which no argument can hold: `printf` writes it to curl's standard input, each byte
    /// that is not printable ASCII as an octal escape, a secret as `%s` with its `"${NAME}"` as an argument.
    private mutating func writePipedBody(_ parts: [Part]) {
        var format = ""
        var arguments: [String] = []
        for piece in pieces(parts) {
            switch piece {
            case .variable(let name):
                format += "%s"
                arguments.append(ShellWord([.variable(name)]).quoted)
            case .literal(let bytes):
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "%"): format += "%%"
                    case UInt8(ascii: "\\"): format += "\\\\"
                    case 0x20..<0x7F: format.unicodeScalars.append(Unicode.Scalar(byte))
                    default:
                        let octal = String(byte, radix: 8)
                        format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                    }
                }
            }
        }
        input = (["printf", ShellWord(format).quoted] + arguments).joined(separator: " ")
        option("--data-binary", ShellWord("@-"))
    }

    // MARK: - Multipart

    /// The value of a part holding `data`, as ``field(_:_:sent:_:)`` writes it against the other run's part and the
    /// part sent; NUL bytes, which no shell argument can hold, are noted.
    private mutating func partValue(
        _ data: Data, of part: MultipartFormData.Part, _ other: MultipartFormData.Part,
        sent: MultipartFormData.Part?
    ) -> [Part] {
        var otherData = data
        if case .data(let otherContent) = other.content { otherData = otherContent }
        var sentData: [UInt8]?
        if case .data(let real)? = sent?.content { sentData = Array(real) }
        let value = field(Array(data), Array(otherData), sent: sentData, "part \(part.name)")
        if data.contains(0) {
            note(
                "the part \(part.name) holds NUL bytes, which no shell argument can hold: the command sends it "
                    + "without them")
        }
        return value
    }

    /// One part: a plain text field as `--form-string name=value` (no `@` or `<` or `;` is read in it), any other
    /// part as `-F 'name="value";filename="...";type=...;headers="..."'` or `-F 'name=@"path";...'`.
    private mutating func writePart(
        _ part: MultipartFormData.Part, _ other: MultipartFormData.Part, sent: MultipartFormData.Part?
    ) {
        let name = field(
            Array(part.name.utf8), Array(other.name.utf8), sent: sent.map { Array($0.name.utf8) }, "part name")
        if part.name.contains("=") {
            note("the part name \"\(part.name)\" holds '=', which curl's -F reads as the end of the name")
        }
        if case .data(let data) = part.content, part.filename == nil, part.contentType == nil, part.headers.isEmpty {
            let value = partValue(data, of: part, other, sent: sent)
            option("--form-string", ShellWord(pieces(name) + [.literal(Array("=".utf8))] + pieces(value)))
            return
        }
        var spec = pieces(name) + [.literal(Array("=".utf8))]
        switch part.content {
        case .file(let path):
            spec += [.literal(Array("@".utf8))] + quotedParameter([.literal(Array(path.utf8))])
        case .data(let data):
            let value = partValue(data, of: part, other, sent: sent)
            spec += quotedParameter(pieces(value))
        }
        if let filename = part.filename {
            let otherFilename = other.filename ?? filename
            let parts = field(
                Array(filename.utf8), Array(otherFilename.utf8), sent: sent?.filename.map { Array($0.utf8) },
                "filename of part \(part.name)")
            spec += [.literal(Array(";filename=".utf8))] + quotedParameter(pieces(parts))
        }
        if let type = part.contentType {
            let parts = field(
                Array(type.utf8), Array((other.contentType ?? type).utf8),
                sent: sent?.contentType.map { Array($0.utf8) },
                "content type of part \(part.name)")
            if Self.isPlainMediaType(parts) {
                spec += [.literal(Array(";type=".utf8))] + pieces(parts)
            } else {
                // `type=` ends at `;` or `,` and keeps quotes: a type with parameters goes as the part's header.
                spec +=
                    [.literal(Array(";headers=".utf8))]
                    + quotedParameter([.literal(Array("Content-Type: ".utf8))] + pieces(parts))
            }
        }
        for (index, header) in part.headers.enumerated() {
            let otherValue = index < other.headers.count ? other.headers[index].value : header.value
            let sentValue = sent.flatMap { index < $0.headers.count ? Array($0.headers[index].value.utf8) : nil }
            let parts = field(
                Array(header.value.utf8), Array(otherValue.utf8), sent: sentValue,
                "header \(header.name) of part \(part.name)")
            spec +=
                [.literal(Array(";headers=".utf8))]
                + quotedParameter([.literal(Array("\(header.name): ".utf8))] + pieces(parts))
        }
        option("-F", ShellWord(spec))
    }

    /// Whether a part's content type can follow curl's `type=`: `major/minor` without spaces, quotes, `;` or `,`,
    /// and no variable in it.
    private static func isPlainMediaType(_ parts: [Part]) -> Bool {
        guard parts.count == 1, case .literal(let bytes) = parts[0] else { return false }
        return bytes.contains(UInt8(ascii: "/"))
            && !bytes.contains { $0 <= 0x20 || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") || $0 == 0x22 }
    }

    /// A parameter of curl's `-F` between double quotes, `"` and `\` escaped with `\` as curl reads them. A variable
    /// stays a variable: a value holding `"` would end curl's quotes early, so a note says so.
    private mutating func quotedParameter(_ pieces: [ShellWord.Piece]) -> [ShellWord.Piece] {
        var result: [ShellWord.Piece] = [.literal([UInt8(ascii: "\"")])]
        for piece in pieces {
            switch piece {
            case .literal(let bytes):
                var escaped: [UInt8] = []
                for byte in bytes {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { escaped.append(UInt8(ascii: "\\")) }
                    escaped.append(byte)
                }
                result.append(.literal(escaped))
            case .variable(let name):
                result.append(piece)
                note("curl's -F reads a double quote or backslash in ${\(name)} as its own quoting")
            }
        }
        result.append(.literal([UInt8(ascii: "\"")]))
        return result
    }
}
