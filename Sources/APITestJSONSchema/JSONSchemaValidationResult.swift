/// The outcome of validating one instance.
public struct JSONSchemaValidationResult: Sendable {
    /// Whether the instance is valid against the schema.
    public var isValid: Bool
    /// Every failed assertion, in evaluation order (the first `maximumErrors` when a limit was given); empty
    /// when valid.
    public var errors: [JSONSchemaValidationError]
    /// Whether the limit on errors was reached: more assertions may have failed than `errors` lists.
    public var isTruncated: Bool

    /// Creates a result.
    public init(isValid: Bool, errors: [JSONSchemaValidationError], isTruncated: Bool = false) {
        self.isValid = isValid
        self.errors = errors
        self.isTruncated = isTruncated
    }
}
