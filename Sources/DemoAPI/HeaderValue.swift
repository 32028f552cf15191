// Parsing of structured header values such as `multipart/form-data; boundary="abc"` or
// `form-data; name="file"; filename*=UTF-8''na%C3%AFve.txt`.

// MARK: - HeaderValue

/// A header value split into its main value and `;`-separated parameters (RFC 9110 §5.6.6, RFC 5987/8187).
struct HeaderValue {
    /// The part before the first `;`, trimmed (for Content-Type: the media type, lower-cased).
    var value: String
    /// Parameters in order, names lower-cased, quoted strings unquoted, `name*` values RFC 5987-decoded and
    /// stored under `name*`.
    var parameters: [(name: String, value: String)]

    /// The parameter value for `name` (case-insensitive); an extended `name*` parameter wins over `name`.
    func parameter(_ name: String) -> String? {
        let lower = name.lowercased()
        if let extended = parameters.first(where: { $0.name == lower + "*" }) { return extended.value }
        return parameters.first { $0.name == lower }?.value
    }

    /// Parses `text`; malformed parameters are skipped rather than failing the whole value.
    init(parsing text: String, lowercaseValue: Bool = false) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var main = String.UnicodeScalarView()
        var inQuotes = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" { inQuotes.toggle() }
            if scalar == ";" && !inQuotes { break }
            main.append(scalar)
            index += 1
        }
        let trimmed = String(main).trimmingHTTPWhitespace()
        value = lowercaseValue ? trimmed.lowercased() : trimmed
        parameters = []
        while index < scalars.count {
            index += 1 // the ';'
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            var name = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != "=", scalars[index] != ";" {
                name.append(scalars[index])
                index += 1
            }
            let parameterName = String(name).trimmingHTTPWhitespace().lowercased()
            var parameterValue = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
                var raw = String.UnicodeScalarView()
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"" {
                        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                        raw.append(scalars[index])
                        index += 1
                    }
                    index += 1 // closing quote (or past the end)
                    while index < scalars.count, scalars[index] != ";" { index += 1 }
                    parameterValue = String(raw)
                } else {
                    while index < scalars.count, scalars[index] != ";" {
                        raw.append(scalars[index])
                        index += 1
                    }
                    parameterValue = String(raw).trimmingHTTPWhitespace()
                }
            }
            guard !parameterName.isEmpty else { continue }
            if parameterName.hasSuffix("*") {
                guard let decoded = HeaderValue.decodeExtendedValue(parameterValue) else { continue }
                parameterValue = decoded
            }
            parameters.append((parameterName, parameterValue))
        }
    }

    /// Decodes an RFC 5987 `charset'language'percent-encoded` value (UTF-8 or ISO-8859-1).
    static func decodeExtendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let bytes = FormEncoding.percentDecodeBytes(Array(pieces[2].utf8))
        switch pieces[0].lowercased() {
        case "utf-8", "utf8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1", "latin1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}

// MARK: - Trimming

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingHTTPWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
