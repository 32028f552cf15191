package import APITestJSON

/// Supplies schema documents for URIs that are neither the schema being compiled nor a bundled meta-schema.
///
/// Called only while a ``JSONSchema`` is compiled, never during validation. Implementations must not touch the
/// network; return `nil` for a URI they do not serve.
package protocol JSONSchemaResolver: Sendable {
    /// The document at `uri` (absolute, without fragment), or `nil` when this resolver does not know it.
    func resolve(_ uri: String) throws -> JSONValue?
}
