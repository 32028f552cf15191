package import APITestJSONSchema

/// A request or response body as the contract checks it; the runner implements it over what it has already
/// decoded, so a check parses nothing twice.
package protocol ContractBody: Sendable {
    /// Whether the body has no bytes.
    var isEmpty: Bool { get }
    /// Validates the body, decoded as JSON, against `schema`; nil when it is not JSON.
    func validate(against schema: JSONSchema) -> JSONSchemaValidationResult?
}
