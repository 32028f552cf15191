import APITestYAML

extension RequestParser {
    /// `graphql:` into `spec`: the body for POST (and any other method), the query parameters for GET.
    static func readGraphQL(
        _ entry: MapEntry, method: String, url: Template?, into spec: inout RequestSpec, in context: SuiteParseContext
    ) {
        let get = method == "GET"
        if let url, GraphQLParser.isWebSocketURL(url), method != "POST" {
            // A subscription's operation goes in its `subscribe` message: there is no method to choose.
            context.error(
                "a GraphQL subscription over WebSocket (a ws:// or wss:// URL) sends its operation in a subscribe "
                    + "message; remove 'method: \(method)'", at: entry.keyNode)
            return
        }
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
