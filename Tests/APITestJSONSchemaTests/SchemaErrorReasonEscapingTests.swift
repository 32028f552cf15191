import APITestJSON
import Testing

@testable import APITestJSONSchema

/// A compile error's reason quotes values of the schema (a `type` name, a `$ref`), which may hold ESC or any other
/// control character: ``JSONSchemaError/description`` and ``JSONSchemaError/shownReason`` show each as an escape.
struct SchemaErrorReasonEscapingTests {
    /// The compile error of `schema` (JSON text).
    static func error(_ schema: String) throws -> JSONSchemaError {
        let value = try JSONParser.parse(schema)
        do {
            _ = try JSONSchema(value, baseURI: "file:///s.json")
        } catch {
            return error
        }
        Issue.record("the schema compiled")
        throw CancellationError()
    }

    @Test func anUnknownTypeIsShownEscaped() throws {
        let error = try Self.error(#"{"type":"\u001b[31mX\u009b"}"#)
        #expect(error.reason.contains("\u{1B}[31mX\u{9B}"), "the reason keeps the value as it is")
        #expect(error.shownReason.contains(#"unknown type "\u{1B}[31mX\u{9B}""#), "\(error.shownReason)")
        #expect(error.description.hasSuffix(#"unknown type "\u{1B}[31mX\u{9B}""#), "\(error)")
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
    }

    @Test func anUnresolvableReferenceIsShownEscaped() throws {
        let error = try Self.error(##"{"$ref":"#/\u001b[32mnope"}"##)
        #expect(error.shownReference == #"#/\u{1B}[32mnope"#)
        #expect(error.description.contains(##"cannot resolve $ref "#/\u{1B}[32mnope""##), "\(error)")
        #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B })
    }
}
