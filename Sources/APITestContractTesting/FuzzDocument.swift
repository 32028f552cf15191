package import APITestJSON
package import APITestOpenAPI

/// The document a fuzz run reads, in the three forms it needs: its description (operations, schemas, examples),
/// its contract (the checks of responses and requests) and its root file as read (`links`).
package struct FuzzDocument: Sendable {
    /// The document's operations and schemas.
    package var description: OpenAPIDescription
    /// The document as a contract.
    package var contract: OpenAPIContract
    /// The root file's value.
    package var root: JSONValue?

    /// The contract and root file of the document `description` was loaded from, read through `reader`.
    ///
    /// - Throws: the contract's load problems (the same as the description's, which loaded).
    package static func load(
        description: OpenAPIDescription, reader: some OpenAPIFileReader
    ) throws(OpenAPILoadFailure) -> FuzzDocument {
        let contract = try OpenAPIContract.load(
            path: description.rootPath, options: OpenAPIContractOptions(), reader: reader)
        let root = try? reader.read(description.rootPath).value
        return FuzzDocument(description: description, contract: contract, root: root)
    }

    /// The first server's URL when it is absolute (`http://…`, `https://…`): the base URL a run uses without
    /// `--base-url`.
    package var defaultBaseURL: String? {
        guard let url = description.servers.first?.resolvedURL else { return nil }
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !url.contains("{") else { return nil }
        return url
    }

    /// An engine for one run of this document.
    package func engine(_ configuration: FuzzConfiguration) -> FuzzEngine {
        FuzzEngine(description: description, contract: contract, document: root, configuration: configuration)
    }
}
