import APITestYAML

extension RequestParser {
    /// `graphql:` into `spec`: the body for POST (and any other method), the query parameters for GET.
    static func readGraphQL(
        _ entry: MapEntry, method: String, into spec: inout RequestSpec, in context: SuiteParseContext
    ) {
        let get = method == "GET"
        if get, spec.query != nil {
            context.error(
                "a GET 'graphql' request sends its operation as the query; remove 'query'", at: entry.keyNode)
            return
        }
        let (body, query) = GraphQLParser.parse(entry.value, get: get, in: context)
        spec.body = body
        if let query { spec.query = query }
        spec.isGraphQL = true
    }
}
