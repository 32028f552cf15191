/// A strict RFC 8259 JSON parser working directly on UTF-8 bytes.
///
/// - Rejects trailing commas, comments, leading zeros, `NaN`/`Infinity`, unescaped control characters in strings,
///   lone surrogate escapes, invalid UTF-8 and anything but whitespace after the value.
/// - Joins surrogate-pair escapes; a repeated object key keeps its last value (at its first position).
/// - Numbers without fraction or exponent that fit `Int64` become `.integer`; others become `.double` when the
///   double reads back as the written decimal value, and `.number` (exact) otherwise, such as integers beyond
///   64 bits or decimals with more than 17 significant digits. A number too large for a `Double` is an error.
/// - A UTF-8 byte order mark before the value is ignored (RFC 8259 §8.1 allows this).
/// - Containers may nest at most ``maximumDepth`` levels; the parser itself never recurses.
package enum JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 512

    /// Parses one JSON text from UTF-8 bytes.
    package static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            parseResult(buffer)
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { parseResult($0) }.get()
    }

    /// Parses one JSON text from a string.
    package static func parse(_ string: String) throws(JSONParseError) -> JSONValue {
        var string = string
        return try string.withUTF8 { parseResult($0) }.get()
    }

    /// The JSON Pointer's reference tokens (RFC 6901, unescaped) of the value being read at the UTF-8 `byteOffset`
    /// of the JSON text `bytes`, as a ``JSONParseError`` at that offset carries them: for an error another reader
    /// found (libyaml reading a JSON document), so that it can be named beside its position.
    package static func pointer(in bytes: [UInt8], at byteOffset: Int) -> [String] {
        bytes.withUnsafeBufferPointer { JSONByteParser($0).pointer(at: byteOffset) }
    }

    private static func parseResult(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONParseError> {
        var parser = JSONByteParser(buffer)
        do {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}
