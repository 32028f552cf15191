package import APITestJSON

/// What a response's check or capture reads, in the suite format's terms (docs/suite-format.md "Queries").
package enum ScriptQuery: Sendable, Equatable {
    /// `query: status`.
    case status
    /// `query: duration`, in milliseconds.
    case duration
    /// `query: body`, the body as text.
    case body
    /// `header: NAME`.
    case header(String)
    /// `jsonpath: QUERY`.
    case jsonpath(String)

    /// The query as the members of a general-form map: `{query: status}`, `{header: Location}`.
    package var members: [(key: String, value: JSONValue)] {
        switch self {
        case .status: return [("query", "status")]
        case .duration: return [("query", "duration")]
        case .body: return [("query", "body")]
        case .header(let name): return [("header", .string(name))]
        case .jsonpath(let path): return [("jsonpath", .string(path))]
        }
    }
}

/// One check translated from a script: a query, filters and one predicate with its argument.
package struct ScriptCheck: Sendable, Equatable {
    /// What is checked.
    package var query: ScriptQuery
    /// Filters applied first (`count`).
    package var filters: [JSONValue] = []
    /// The predicate: `equals`, `contains`, `type`, ...
    package var predicate: String
    /// Its argument.
    package var argument: JSONValue

    /// A check of `query` with `predicate: argument`.
    package init(_ query: ScriptQuery, filters: [JSONValue] = [], _ predicate: String, _ argument: JSONValue) {
        self.query = query
        self.filters = filters
        self.predicate = predicate
        self.argument = argument
    }

    /// The check in the general form of `assert`: `{jsonpath: $.id, equals: 3}`.
    package var generalForm: JSONValue {
        var members = query.members
        if !filters.isEmpty { members.append(("filters", .array(filters))) }
        members.append((predicate, argument))
        return .object(JSONObject(members))
    }
}

/// A capture translated from `pm.environment.set(name, <response value>)` and its kin.
package struct ScriptCapture: Sendable, Equatable {
    /// The Postman variable's name.
    package var name: String
    /// Where its value comes from.
    package var query: ScriptQuery

    /// `name` captured from `query`.
    package init(name: String, query: ScriptQuery) {
        self.name = name
        self.query = query
    }
}

/// A line of a script that was not translated: its 1-based number and its text.
package struct ScriptLine: Sendable, Equatable {
    /// The line number in the script, from 1.
    package var number: Int
    /// The line as written (trimmed).
    package var text: String

    /// Line `number` reading `text`.
    package init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// The result of translating one script.
package struct ScriptTranslation: Sendable, Equatable {
    /// The checks, in script order.
    package var checks: [ScriptCheck] = []
    /// The captures, in script order.
    package var captures: [ScriptCapture] = []
    /// The lines not translated, in order (blank lines and comments are not listed).
    package var untranslated: [ScriptLine] = []

    /// An empty translation.
    package init() {}
}
