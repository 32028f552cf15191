import APITestJSON
import APITestSupport
import APITestYAML
import Foundation

/// `graphql:` of a request: a GraphQL operation (`query` inline or `file: x.graphql`, `variables`, `operationName`)
/// sent as a POST JSON body `{"query", "variables", "operationName"}`, or, with `method: GET`, as query parameters
/// (GraphQL over HTTP); and `expect.graphql` (docs/streaming.md#graphql).
enum GraphQLParser {
    /// The keys of `graphql:`.
    enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case query, file, variables, operationName

        var schema: SchemaValue {
            switch self {
            case .query: .described("The operation's document, inline (templated).", ref: "template")
            case .file:
                .described("A .graphql file holding the document, relative to the suite (read as is).", ref: "filePath")
            case .variables: .described("The operation's variables (a map, templated).", ["type": "object"])
            case .operationName: .described("The operation to run when the document has several.", ref: "template")
            }
        }

        /// The definition of `graphql:`.
        static var definition: SchemaValue {
            .described(
                "A GraphQL operation as the body: POST JSON {query, variables, operationName}, or query parameters "
                    + "with method GET; a response with errors fails unless expect.graphql.errors expects them.",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    /// The keys of `expect.graphql`.
    enum ExpectKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case errors

        var schema: SchemaValue {
            .described(
                "The errors the response must hold: {count, message, path} (of the first error), each a check; "
                    + "absent: a response with errors fails the step.",
                [
                    "type": "object", "additionalProperties": false,
                    "properties": [
                        "count": .ref("scalarCheck"), "message": .ref("textCheck"), "path": .ref("valueCheck"),
                    ],
                ])
        }

        /// The definition of `expect.graphql`.
        static var definition: SchemaValue {
            .described(
                "Checks of a GraphQL response's errors (the data is checked with json: as usual).",
                ["type": "object", "additionalProperties": false, "properties": properties])
        }
    }

    // MARK: - The request

    /// Whether `url` is written as a WebSocket URL (`ws://` or `wss://` before any placeholder): the request is a
    /// subscription over `graphql-transport-ws`.
    static func isWebSocketURL(_ url: Template) -> Bool {
        let text = url.source.prefix(6).lowercased()
        return text.hasPrefix("ws://") || text.hasPrefix("wss://")
    }

    /// The body (or, for GET, the query parameters) of `graphql:`.
    static func parse(_ node: YAMLNode, get: Bool, in context: SuiteParseContext) -> (BodySpec?, TemplateValue?) {
        guard let entries = context.mapping(node, for: "graphql") else { return (nil, nil) }
        context.checkKeys(entries, of: Key.self, in: "graphql")
        var document: TemplateValue?
        var members: [TemplateValue.Member] = []
        // Whether `query` or `file` is written: one that is wrong has its own error, and no second one.
        var documentWritten = false
        for entry in entries {
            switch Key(named: entry.key) {
            case .query:
                documentWritten = true
                if document != nil {
                    context.error("'graphql' takes 'query' or 'file', not both", at: entry.keyNode)
                    continue
                }
                document = context.template(entry.value, for: "query").map(TemplateValue.string)
            case .file:
                documentWritten = true
                if document != nil {
                    context.error("'graphql' takes 'query' or 'file', not both", at: entry.keyNode)
                    continue
                }
                guard let path = context.text(entry.value, for: "file"),
                    let absolute = context.checkBodyFile(path, at: entry.value, for: "file")
                else { continue }
                guard let text = try? String(contentsOfFile: absolute, encoding: .utf8) else {
                    context.error("the GraphQL file '\(path.shownInMessage)' is not UTF-8 text", at: entry.value)
                    continue
                }
                document = .string(Template(literal: text, location: context.location(of: entry.value)))
            case .variables:
                guard context.isMapping(entry.value) else {
                    context.typeError(expected: "a map", for: "variables", found: entry.value)
                    continue
                }
                members.append(TemplateValue.Member(key: "variables", value: context.templateValue(entry.value)))
            case .operationName:
                if let name = context.template(entry.value, for: "operationName") {
                    members.append(TemplateValue.Member(key: "operationName", value: .string(name)))
                }
            case nil: break
            }
        }
        guard let document else {
            if documentWritten { return (nil, nil) }
            context.error(
                "'graphql' needs a 'query' or a 'file'", at: node, note: "write {query: \"{ users { id } }\"}")
            return (nil, nil)
        }
        members.insert(TemplateValue.Member(key: "query", value: document), at: 0)
        guard get else { return (.json(.object(members)), nil) }
        // GET: the variables go as their JSON text, which only a literal map can be written as when the suite loads.
        var parameters: [TemplateValue.Member] = []
        for member in members {
            guard member.key == "variables" else {
                parameters.append(member)
                continue
            }
            guard member.value.isLiteral, let value = try? member.value.render(TemplateContext()) else {
                context.error(
                    "with method GET, 'variables' cannot hold placeholders (they are sent as JSON text in the URL); "
                        + "use POST", at: node)
                return (nil, nil)
            }
            parameters.append(
                TemplateValue.Member(
                    key: "variables",
                    value: .string(Template(literal: JSONWriter.string(value), location: context.location(of: node)))))
        }
        return (nil, .object(parameters))
    }

    // MARK: - expect.graphql

    /// `expect.graphql:`: the checks of the errors, as assertions on `$.errors`.
    static func expectation(_ node: YAMLNode, in context: SuiteParseContext) -> GraphQLExpectation {
        var expectation = GraphQLExpectation(location: context.location(of: node), errors: [])
        guard let entries = context.mapping(node, for: "graphql") else { return expectation }
        context.checkKeys(entries, of: ExpectKey.self, in: "expect.graphql")
        for entry in entries where entry.key == ExpectKey.errors.rawValue {
            expectation.errorsExpected = true
            guard let checks = context.mapping(entry.value, for: "errors") else { continue }
            for check in checks {
                let path: String
                var filters: [Filter] = []
                switch check.key {
                case "count":
                    // Every error, so that a response without `errors` (GraphQL omits it then) counts 0.
                    path = "$.errors[*]"
                    filters = [.count]
                case "message": path = "$.errors[0].message"
                case "path": path = "$.errors[0].path"
                default:
                    context.error(
                        "unknown key '\(check.key)' in errors"
                            + Suggestion.didYouMean(check.key, in: ["count", "message", "path"]),
                        at: check.keyNode)
                    continue
                }
                guard let query = try? JSONPath(path) else { continue }
                if let made = CheckParser.check(
                    check.value, query: .jsonpath(query), at: context.location(of: check.keyNode), filters: filters,
                    in: context)
                {
                    expectation.errors.append(made)
                }
            }
        }
        return expectation
    }
}
