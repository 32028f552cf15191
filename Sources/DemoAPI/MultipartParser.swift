#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - MultipartPart

/// One part of a multipart/form-data body.
struct MultipartPart {
    /// Part headers in order, as sent (decoded as UTF-8, or ISO-8859-1 when not UTF-8).
    var headers: [(name: String, value: String)]
    /// The byte range of the part's content in the body.
    var content: Range<Int>

    /// The first header named `name` (case-insensitive).
    func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// The parsed Content-Disposition header.
    var disposition: HeaderValue? { header("Content-Disposition").map { HeaderValue(parsing: $0) } }
}

// MARK: - MultipartParser

/// A binary-safe multipart body parser (RFC 2046 §5.1, RFC 7578): preamble and epilogue are ignored, transport
/// padding after a delimiter is allowed, header lines may be folded, and part content may hold any bytes.
enum MultipartParser {
    /// Why a multipart body could not be parsed.
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// Splits `body` into parts using `boundary` (the Content-Type parameter, without the leading `--`).
    static func parse(_ body: [UInt8], boundary: String) throws(ParseError) -> [MultipartPart] {
        guard !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw ParseError(description: "boundary must be 1 to 200 characters long")
        }
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var position: Int
        if body.starts(with: dashBoundary) {
            position = 0
        } else if let found = find(delimiter, in: body, from: 0) {
            position = found + 2
        } else {
            throw ParseError(description: "no boundary delimiter '--\(boundary)' found in the body")
        }
        var parts: [MultipartPart] = []
        while true {
            var cursor = position + dashBoundary.count
            if hasPrefix([UInt8(ascii: "-"), UInt8(ascii: "-")], in: body, at: cursor) { return parts }
            while cursor < body.count, body[cursor] == 0x20 || body[cursor] == 0x09 { cursor += 1 }
            guard hasPrefix([0x0D, 0x0A], in: body, at: cursor) else {
                if cursor >= body.count { throw ParseError(description: "body ends without a closing boundary") }
                throw ParseError(description: "expected CRLF after boundary delimiter at byte \(cursor)")
            }
            let partStart = cursor + 2
            guard let next = find(delimiter, in: body, from: partStart) else {
                throw ParseError(description: "part \(parts.count + 1) is not terminated by a boundary delimiter")
            }
            parts.append(try parsePart(body, partStart..<next, number: parts.count + 1))
            position = next + 2
        }
    }

    // MARK: - Parts

    private static func parsePart(_ body: [UInt8], _ range: Range<Int>, number: Int) throws(ParseError) -> MultipartPart
    {
        if range.isEmpty { return MultipartPart(headers: [], content: range) }
        if hasPrefix([0x0D, 0x0A], in: body, at: range.lowerBound) {
            return MultipartPart(headers: [], content: range.lowerBound + 2..<range.upperBound)
        }
        let blankLine: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard let headerEnd = find(blankLine, in: body, from: range.lowerBound, before: range.upperBound) else {
            throw ParseError(description: "part \(number) has no blank line after its headers")
        }
        let headers = try parseHeaders(Array(body[range.lowerBound..<headerEnd]), number: number)
        return MultipartPart(headers: headers, content: headerEnd + 4..<range.upperBound)
    }

    private static func parseHeaders(
        _ bytes: [UInt8], number: Int
    ) throws(ParseError) -> [(name: String, value: String)] {
        var lines: [[UInt8]] = []
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(Array(bytes[lineStart..<index]))
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(Array(bytes[lineStart..<bytes.count]))
        var headers: [(name: String, value: String)] = []
        for line in lines {
            if let first = line.first, first == 0x20 || first == 0x09 {
                guard !headers.isEmpty else {
                    throw ParseError(description: "part \(number): continuation line before any header")
                }
                headers[headers.count - 1].value += " " + decodeHeaderText(line).trimmingHTTPWhitespace()
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
                throw ParseError(description: "part \(number): malformed header line '\(decodeHeaderText(line))'")
            }
            let name = decodeHeaderText(Array(line[0..<colon])).trimmingHTTPWhitespace()
            let value = decodeHeaderText(Array(line[(colon + 1)...])).trimmingHTTPWhitespace()
            headers.append((name, value))
        }
        return headers
    }

    /// Header bytes as UTF-8 when valid (what browsers and curl send for non-ASCII file names), else ISO-8859-1.
    private static func decodeHeaderText(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    // MARK: - Byte search

    private static func hasPrefix(_ prefix: [UInt8], in body: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= body.count else { return false }
        for index in 0..<prefix.count where body[offset + index] != prefix[index] { return false }
        return true
    }

    /// The offset of the first `needle` in `body[from..<before]` (memchr for the first byte, then memcmp, so
    /// large bodies are searched quickly).
    static func find(_ needle: [UInt8], in body: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let limit = min(end ?? body.count, body.count)
        guard start >= 0, limit - start >= needle.count, let first = needle.first else { return nil }
        return body.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return nil }
                var offset = start
                let lastStart = limit - needle.count
                while offset <= lastStart {
                    guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, patternBase, needle.count) == 0 { return position }
                    offset = position + 1
                }
                return nil
            }
        }
    }
}
