/// The outcome of validating one instance.
package struct JSONSchemaValidationResult: Sendable {
    /// Whether the instance is valid against the schema.
    package var isValid: Bool
    /// Every failed assertion, in evaluation order (the first `maximumErrors` when a limit was given); empty
    /// when valid.
    package var errors: [JSONSchemaValidationError]
    /// Whether the limit on errors was reached: more assertions may have failed than `errors` lists.
    package var isTruncated: Bool

    /// Creates a result.
    package init(isValid: Bool, errors: [JSONSchemaValidationError], isTruncated: Bool = false) {
        self.isValid = isValid
        self.errors = errors
        self.isTruncated = isTruncated
    }
}
