package import APITestJSONSchema
package import APITestSupport

/// `expect.schema`: a JSON Schema (draft 2020-12 or draft-07), compiled when the suite loads, that the JSON body
/// must match.
package struct SchemaExpectation: Sendable, Hashable {
    package var schema: JSONSchema
    /// The schema file as written in the suite, or `inline`.
    package var source: String
    package var location: SourceLocation

    package init(schema: JSONSchema, source: String, location: SourceLocation) {
        self.schema = schema
        self.source = source
        self.location = location
    }

    package static func == (lhs: SchemaExpectation, rhs: SchemaExpectation) -> Bool {
        lhs.source == rhs.source && lhs.location == rhs.location
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(location)
    }
}
