/// One failed assertion: where in the instance, which keyword, where in the schema, and why.
package struct JSONSchemaValidationError: Sendable, Hashable, CustomStringConvertible {
    /// JSON Pointer to the failing value inside the instance, e.g. `/users/0/age` (empty for the root).
    package var instancePath: String
    /// The keyword that failed, e.g. `minimum`, `required`, `additionalProperties`.
    package var keyword: String
    /// JSON Pointer along the evaluation path through the schema to the keyword, e.g.
    /// `/properties/users/items/properties/age/minimum`; references appear as `$ref` segments.
    package var schemaPath: String
    /// A plain-language message, e.g. `must be >= 0, got -3`.
    package var message: String

    /// Creates an error record.
    package init(instancePath: String, keyword: String, schemaPath: String, message: String) {
        self.instancePath = instancePath
        self.keyword = keyword
        self.schemaPath = schemaPath
        self.message = message
    }

    /// `instancePath: message (keyword at schemaPath)`, with `(root)` for the empty instance path.
    package var description: String {
        "\(instancePath.isEmpty ? "(root)" : instancePath): \(message) (\(keyword) at \(schemaPath.isEmpty ? "#" : "#" + schemaPath))"
    }
}
