package import APITestJSON
package import APITestJSONSchema

/// A body held as bytes, parsed as JSON when a check needs it; or a value already parsed.
package struct ContractDataBody: ContractBody {
    /// The body's bytes (empty for none).
    package var bytes: [UInt8]

    /// A body of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A body of the UTF-8 of `text`.
    package init(text: String) {
        self.bytes = Array(text.utf8)
    }

    /// A body of `value` written as JSON.
    package init(json value: JSONValue) {
        self.bytes = Array(JSONWriter.string(value).utf8)
    }

    /// No body.
    package static let empty = ContractDataBody([])

    /// Whether there are no bytes.
    package var isEmpty: Bool { bytes.isEmpty }

    /// Parses the bytes as JSON and validates them; nil when they are not JSON.
    package func validate(against schema: JSONSchema) -> JSONSchemaValidationResult? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        return schema.validate(value, maximumErrors: 50)
    }
}
