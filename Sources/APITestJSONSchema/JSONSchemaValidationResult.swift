/// The outcome of validating one instance.
public struct JSONSchemaValidationResult: Sendable {
    /// Whether the instance is valid against the schema.
    public var isValid: Bool
    /// Every failed assertion, in evaluation order; empty when valid.
    public var errors: [JSONSchemaValidationError]

    /// Creates a result.
    public init(isValid: Bool, errors: [JSONSchemaValidationError]) {
        self.isValid = isValid
        self.errors = errors
    }
}
