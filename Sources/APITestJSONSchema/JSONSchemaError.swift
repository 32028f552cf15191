import APITestSupport

/// Why a schema cannot be compiled: a bad keyword value, a `$ref` that cannot be resolved, an unknown dialect.
package struct JSONSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    package enum Kind: Sendable, Hashable {
        /// A keyword has a value of the wrong type or shape (for example `"minLength": "3"`).
        case invalidSchema
        /// A `$ref` or `$dynamicRef` points at nothing that is bundled, loaded or resolvable.
        case unresolvableReference
        /// `$schema` names a meta-schema that is neither a supported draft nor resolvable.
        case unsupportedDraft
        /// The resolver failed to read or parse a referenced document.
        case resolverFailure
    }

    /// The kind of problem.
    package var kind: Kind
    /// The URI of the schema document where the problem is (the root schema's base URI for the root).
    package var documentURI: String
    /// A JSON Pointer to the offending keyword inside that document, e.g. `/properties/a/$ref`.
    package var schemaPath: String
    /// A plain-language reason, e.g. `cannot resolve $ref "other.json#/x" (http://host/other.json#/x)`.
    package var reason: String
    /// The reference text, for `unresolvableReference` and `resolverFailure`.
    package var reference: String?

    /// Creates an error; `schemaPath` is a JSON Pointer into the document at `documentURI`.
    package init(kind: Kind, documentURI: String, schemaPath: String, reason: String, reference: String? = nil) {
        self.kind = kind
        self.documentURI = documentURI
        self.schemaPath = schemaPath
        self.reason = reason
        self.reference = reference
    }

    /// `documentURI#schemaPath: reason`, the pointer and the reason escaped for the display
    /// (``Swift/String/shownAsPointer``, ``shownReason``: a member name or a value of the schema may hold a control
    /// character).
    package var description: String {
        "\(documentURI)#\(schemaPath.shownAsPointer): \(shownReason)"
    }

    /// ``reason`` as a message shows it: it quotes values of the schema document (a `type` name, a `$ref`), which
    /// may hold any character, so controls and invisible characters are written as escapes
    /// (``Swift/String/shownInMessage``). Every place that shows a schema error shows this, never ``reason`` raw.
    package var shownReason: String { reason.shownInMessage }

    /// ``reference`` as a message shows it (``Swift/String/shownInMessage``).
    package var shownReference: String? { reference?.shownInMessage }
}
