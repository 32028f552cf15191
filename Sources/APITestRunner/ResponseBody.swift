import APITestHTTP
import APITestJSON
import Foundation

/// A response with the views of its body that checks ask for, each made once, on first use: JSON, text, cookies.
struct ResponseBody {
    let response: HTTPResponse
    private var parsedJSON: Result<JSONValue, CheckProblem>?
    private var decodedText: Result<String, CheckProblem>?

    init(_ response: HTTPResponse) {
        self.response = response
    }

    // MARK: - JSON

    /// The body parsed as JSON.
    mutating func json() -> Result<JSONValue, CheckProblem> {
        if let parsedJSON { return parsedJSON }
        let result: Result<JSONValue, CheckProblem>
        do {
            result = .success(try JSONParser.parse(response.body))
        } catch {
            result = .failure(CheckProblem("the response body is not JSON (json decoder: \(error))"))
        }
        parsedJSON = result
        return result
    }

    // MARK: - Text

    /// The body as text, decoded with the charset of `Content-Type` (UTF-8 when none is given).
    mutating func text() -> Result<String, CheckProblem> {
        if let decodedText { return decodedText }
        let result = Self.decode(response.body, charset: charset)
        decodedText = result
        return result
    }

    /// The `charset` parameter of `Content-Type`, lower-cased, or `nil`.
    var charset: String? {
        guard let type = response.headers["Content-Type"] else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")).lowercased()
        }
        return nil
    }

    private static func decode(_ data: Data, charset: String?) -> Result<String, CheckProblem> {
        let encoding: String.Encoding
        switch charset ?? "utf-8" {
        case "utf-8", "utf8": encoding = .utf8
        case "iso-8859-1", "latin1", "iso8859-1", "l1": encoding = .isoLatin1
        case "us-ascii", "ascii": encoding = .ascii
        case "utf-16": encoding = .utf16
        case "utf-16le": encoding = .utf16LittleEndian
        case "utf-16be": encoding = .utf16BigEndian
        case "windows-1252", "cp1252": encoding = .windowsCP1252
        case let other: return .failure(CheckProblem("the body's charset '\(other)' is not supported"))
        }
        if encoding == .utf8 {
            var bytes = data.makeIterator()
            var decoder = UTF8()
            var offset = 0
            while true {
                switch decoder.decode(&bytes) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return .success(String(decoding: data, as: UTF8.self))
                case .error:
                    return .failure(
                        CheckProblem("the body is not valid UTF-8 (text decoder: invalid byte at offset \(offset))"))
                }
            }
        }
        guard let text = String(data: data, encoding: encoding) else {
            return .failure(CheckProblem("the body is not valid \(charset ?? "text") (text decoder)"))
        }
        return .success(text)
    }
}

/// Why a check could not read its value: the body is not JSON, a filter got the wrong type, and so on.
struct CheckProblem: Error, Sendable {
    var text: String

    init(_ text: String) {
        self.text = text
    }
}
