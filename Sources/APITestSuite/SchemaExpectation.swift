import APITestJSONSchema
import APITestSupport

/// `expect.schema`: a JSON Schema (draft 2020-12 or draft-07), compiled when the suite loads, that the JSON body
/// must match.
public struct SchemaExpectation: Sendable, Hashable {
    public var schema: JSONSchema
    /// The schema file as written in the suite, or `inline`.
    public var source: String
    public var location: SourceLocation

    public init(schema: JSONSchema, source: String, location: SourceLocation) {
        self.schema = schema
        self.source = source
        self.location = location
    }

    public static func == (lhs: SchemaExpectation, rhs: SchemaExpectation) -> Bool {
        lhs.source == rhs.source && lhs.location == rhs.location
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(location)
    }
}
