import APITestJSON

/// A Postman environment or globals file: a name and variables (disabled ones left out).
package struct PostmanEnvironment: Sendable {
    /// `name`, when the file has one.
    package var name: String?
    /// `values`, in order.
    package var variables: [PostmanVariable]

    /// An environment named `name` with `variables`.
    package init(name: String?, variables: [PostmanVariable]) {
        self.name = name
        self.variables = variables
    }

    /// The environment or globals file in `bytes`: an object with `values` (what Postman exports), or a bare list of
    /// variables (older globals files).
    package static func decode(_ bytes: [UInt8], file: String) throws(JSONSourceError) -> PostmanEnvironment {
        let root = try JSONSourceNode.parse(bytes, file: file)
        let decoder = PostmanCollectionDecoder(file: file)
        if case .array = root.value { return PostmanEnvironment(name: nil, variables: try decoder.variables(root)) }
        guard case .object = root.value else {
            throw root.error("expected a Postman environment (an object with 'values') or a list of variables")
        }
        if root.member("item") != nil {
            throw root.error("this is a collection, not an environment or globals file")
        }
        guard let values = root.member("values") else {
            throw root.error("no 'values' list: not a Postman environment or globals file")
        }
        return PostmanEnvironment(name: try root.text("name"), variables: try decoder.variables(values))
    }
}
