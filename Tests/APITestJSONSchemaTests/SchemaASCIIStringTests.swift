import APITestJSON
import APITestJSONSchema
import Foundation
import Testing

/// `JSONSchema.acceptsASCIIString(_:)`, the in-place read of a string's bytes that a contract's path parameters
/// use: it accepts only what validating the `.string` value finds valid, and it does accept the plain ASCII strings
/// a scalar plan decides (or it saves nothing).
struct SchemaASCIIStringTests {
    private let schemas = [
        #"{"type": "string", "pattern": "^[0-9]+\\.json$"}"#, #"{"type": "string", "minLength": 2, "maxLength": 4}"#,
        #"{"enum": ["a", "é", "a\"b", ""]}"#, #"{"const": "x"}"#, #"{"type": "string"}"#, "{}", "true", "false",
        #"{"type": "integer"}"#, #"{"type": ["string", "null"], "maxLength": 3}"#, #"{"pattern": "^\\p{L}*$"}"#,
        #"{"allOf": [{"type": "string"}]}"#, ##"{"$ref": "#/$defs/s", "$defs": {"s": {"minLength": 1}}}"##,
        #"{"type": "string", "unevaluatedProperties": false}"#, #"{"pattern": "^[^\\\\]*$"}"#,
        #"{"format": "email", "type": "string"}"#, #"{"type": "string", "pattern": "^\\s*$"}"#,
    ]

    private let strings = [
        "", "a", "ab", "abcd", "abcde", "1.json", "x.json", "é", "café.json", "a\"b", "a\\b", "\u{0}", "\t", " \n ",
        "\u{7F}", "✓", "🙂", "x", "null", String(repeating: "9", count: 100_000) + ".json",
        String(repeating: "é", count: 10_000),
    ]

    @Test func acceptsOnlyWhatTheValueValidatesAs() throws {
        var accepted = 0
        for schemaText in schemas {
            let schema = try JSONSchema(JSONParser.parse(schemaText))
            for string in strings {
                let valid = schema.validate(.string(string)).isValid
                var text = string
                let inPlace = text.withUTF8 { schema.acceptsASCIIString($0) }
                #expect(!inPlace || valid, "\(schemaText) accepted \(string.prefix(20).debugDescription)")
                if inPlace { accepted += 1 }
            }
        }
        #expect(accepted > 40, "accepted only \(accepted)")
    }

    @Test func plainASCIIStringsAScalarPlanDecidesAreAccepted() throws {
        let schema = try JSONSchema(JSONParser.parse(#"{"type": "string", "pattern": "^[0-9]+\\.json$"}"#))
        for (string, valid) in [("1.json", true), ("123456789.json", true), ("x.json", false), ("1.json ", false)] {
            var text = string
            #expect(text.withUTF8 { schema.acceptsASCIIString($0) } == valid, "\(string)")
            #expect(schema.validate(.string(string)).isValid == valid)
        }
        // Not ASCII: left to the value's validation, which finds it valid.
        let letters = try JSONSchema(JSONParser.parse(#"{"type": "string", "maxLength": 4}"#))
        var text = "café"
        #expect(!text.withUTF8 { letters.acceptsASCIIString($0) })
        #expect(letters.validate(.string("café")).isValid)
    }
}
