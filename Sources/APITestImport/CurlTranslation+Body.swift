import APITestJSON
import APITestSuiteWriting
import APITestSupport
import Foundation

extension CurlTranslation {
    // MARK: - Data

    /// `-d`/`--data-binary`/`--json`: text, or `@file` (line breaks and carriage returns removed for `-d`, as curl
    /// does). A file sent as it is stays a file (`bodyFile`) when it is the whole body; its text is written into the
    /// suite only when it must be (joined with other data, or changed), with a note naming the file.
    func dataPiece(
        _ word: ShellWord, at position: Int, stripsLineBreaks: Bool
    ) throws(CurlImporter.Failure)
        -> DataPiece
    {
        guard word.literalPrefix.hasPrefix("@") else {
            return DataPiece(text: try text(word, at: position), file: nil, isJSON: false, position: position)
        }
        let path = String(try literal(word, at: position, for: "a file name").dropFirst())
        if path == "-" {
            throw CurlImporter.Failure(
                location: locate(position), message: "\(word) reads standard input: save the data to a file first")
        }
        let original = try contents(of: path, at: position)
        var bytes = original
        if stripsLineBreaks { bytes.removeAll { $0 == 0x0A || $0 == 0x0D } }
        // The file streams as the body when curl sends its bytes unchanged; its text can be written inline when it
        // is UTF-8 without NUL.
        let inline = String(data: bytes, encoding: .utf8).flatMap { $0.contains("\0") ? nil : $0 }
        return DataPiece(
            text: inline.map { TemplateLiteral.escaped($0) }, file: bytes == original ? suitePath(of: path) : nil,
            source: path, isJSON: false, position: position)
    }

    /// `--data-urlencode`: `content`, `=content`, `name=content`, `@file`, `name@file`; the content percent-encoded
    /// as curl does (letters, digits and `-._~` kept, a space as `+`), the name as written. A variable's value cannot
    /// be encoded in a suite, so the word is written out.
    ///
    /// The word is split as curl 7.88's `data_urlencode` splits it: at the first `=` when there is one (so
    /// `a@b=c` is the name `a@b` and the content `c`, not a file), else at the first `@` (a file), else it is all
    /// content.
    func urlEncodedPiece(_ word: ShellWord, at position: Int) throws(CurlImporter.Failure) -> DataPiece {
        guard let value = word.literal else {
            throw CurlImporter.Failure(
                location: locate(position),
                message: "--data-urlencode \(word): a variable's value cannot be URL-encoded in a suite; encode it "
                    + "yourself and use --data-raw")
        }
        var name = ""
        var content = value
        if let equals = value.firstIndex(of: "=") {
            name = String(value[..<equals])
            content = String(value[value.index(after: equals)...])
        } else if let at = value.firstIndex(of: "@") {
            name = String(value[..<at])
            let path = String(value[value.index(after: at)...])
            if path == "-" {
                throw CurlImporter.Failure(
                    location: locate(position),
                    message: "--data-urlencode \(word) reads standard input: save the data to a file first")
            }
            let encoded = Self.urlEncoded(try contents(of: path, at: position))
            let text = TemplateLiteral.escaped(name.isEmpty ? encoded : name + "=" + encoded)
            return DataPiece(
                text: text, file: nil, source: path, isEncoded: true, isJSON: false, position: position)
        }
        let encoded = Self.urlEncoded(Data(content.utf8))
        return DataPiece(
            text: TemplateLiteral.escaped(name.isEmpty ? encoded : name + "=" + encoded), file: nil, isJSON: false,
            position: position)
    }

    /// curl's `--data-urlencode` encoding (`curl_easy_escape`, then each `%20` made `+`): ASCII letters, digits and
    /// `-._~` as they are, a space as `+`, every other byte `%XX` in upper-case hexadecimal (`/` is `%2F`, as curl
    /// 7.88 sends it: `CurlImportTests` compares with the real curl's bytes).
    static func urlEncoded(_ bytes: Data) -> String {
        var result = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
