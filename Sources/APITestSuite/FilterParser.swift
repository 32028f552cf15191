import APITestSupport
import APITestYAML

/// `filters:`: the transformations between a query and a predicate (`count`, `split`, `regex`, `jsonpath`, ...).
enum FilterParser {
    /// The keys of `replace:`.
    enum ReplaceKey: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case pattern
        case with

        var schema: SchemaValue {
            switch self {
            case .pattern: .ref("text")
            case .with: ["type": ["string", "number", "boolean", "null"]]
            }
        }
    }

    // MARK: - Filters

    /// A `filters` list: names (`count`) and one-key maps (`{split: ","}`).
    static func filters(_ node: YAMLNode, in context: SuiteParseContext) -> [Filter]? {
        guard let items = context.sequence(node, for: "filters") else { return nil }
        var filters: [Filter] = []
        for item in items {
            guard let filter = filter(item, in: context) else { return nil }
            filters.append(filter)
        }
        return filters
    }

    /// One filter: a name (`count`) or a one-key map (`{split: ","}`).
    private static func filter(_ node: YAMLNode, in context: SuiteParseContext) -> Filter? {
        if let scalar = context.scalar(node), !YAMLScalar.isNull(scalar) {
            let name = scalar.string
            if let filter = Filter.plain[name] { return filter }
            if Filter.functions.contains(name) { return .function(name) }
            if Filter.withArgument.contains(name) {
                context.error("filter '\(name)' takes an argument: write {\(name): ...}", at: node)
            } else {
                context.error(
                    "unknown filter '\(name)'" + Suggestion.didYouMean(name, in: Filter.names), at: node,
                    note: "filters: " + Filter.names.joined(separator: ", "))
            }
            return nil
        }
        guard context.isMapping(node), let entries = context.mapping(node, for: "a filter"), entries.count == 1,
            let only = entries.first
        else {
            context.error(
                "expected a filter name or a one-key map like {split: \",\"}, found \(context.kindName(of: node))",
                at: node)
            return nil
        }
        switch Filter.ArgumentName(named: only.key) {
        case .nth:
            return context.integer(only.value, for: "nth", in: -1_000_000...1_000_000).map(Filter.nth)
        case .split:
            guard let separator = context.text(only.value, for: "split") else { return nil }
            guard !separator.isEmpty else {
                context.error("'split' needs a non-empty separator", at: only.value)
                return nil
            }
            return .split(separator)
        case .regex:
            guard let pattern = context.text(only.value, for: "regex"),
                let regex = context.regularExpression(pattern, at: only.value)
            else {
                return nil
            }
            return .regex(regex)
        case .replace:
            guard let fields = context.mapping(only.value, for: "replace") else { return nil }
            context.checkKeys(fields, of: ReplaceKey.self, in: "replace")
            guard let patternEntry = fields[ReplaceKey.pattern], let withEntry = fields[ReplaceKey.with] else {
                context.error(
                    "'replace' needs 'pattern' and 'with': {replace: {pattern: '-', with: ''}}", at: only.value)
                return nil
            }
            guard let text = context.text(patternEntry.value, for: "pattern"),
                let pattern = context.regularExpression(text, at: patternEntry.value)
            else { return nil }
            guard let scalar = context.scalar(withEntry.value) else {
                context.typeError(expected: "a string", for: "with", found: withEntry.value)
                return nil
            }
            return .replace(pattern: pattern, with: YAMLScalar.isNull(scalar) ? "" : scalar.string)
        case .jsonpath:
            guard let text = context.text(only.value, for: "jsonpath"),
                let path = context.jsonPath(text, at: only.value)
            else {
                return nil
            }
            return .jsonpath(path)
        case .xpath:
            guard let expression = context.text(only.value, for: "xpath"),
                context.checkXPath(expression, at: only.value)
            else {
                return nil
            }
            return .xpath(expression)
        case nil:
            if Filter.plain[only.key] != nil {
                context.error("filter '\(only.key)' takes no argument: write it as a name", at: only.keyNode)
            } else {
                context.error(
                    "unknown filter '\(only.key)'" + Suggestion.didYouMean(only.key, in: Filter.names),
                    at: only.keyNode, note: "filters: " + Filter.names.joined(separator: ", "))
            }
            return nil
        }
    }
}

// MARK: - Schema

extension Filter.ArgumentName {
    var schema: SchemaValue {
        switch self {
        case .nth:
            .described(
                "The item at a 0-based index; negative counts from the end.",
                ["type": "integer", "minimum": -1_000_000, "maximum": 1_000_000])
        case .split:
            .described("Splits a string at every separator.", ["type": SuiteSchema.scalarTypes, "minLength": 1])
        case .regex:
            .described(
                "Group 1 of the first match (the whole match without groups).", ["type": SuiteSchema.scalarTypes])
        case .replace:
            .described(
                "Every match of `pattern` replaced by `with` ($1 is group 1).",
                [
                    "type": "object", "additionalProperties": false,
                    "required": .strings(FilterParser.ReplaceKey.names),
                    "properties": FilterParser.ReplaceKey.properties,
                ])
        case .jsonpath: .described("A JSONPath on a string holding JSON.", ["type": ["string"], "pattern": #"^\s*\$"#])
        case .xpath:
            .described(
                "An XPath 1.0 expression on a string holding XML.",
                ["type": SuiteSchema.scalarTypes, "pattern": #"\S"#])
        }
    }

    /// The definition of a filter: a name, or a one-key map of a filter that takes an argument.
    static var definition: SchemaValue {
        .described(
            "A filter: a name (count, first, toInt, ...) or a one-key map ({nth: 0}, {split: \",\"}, "
                + "{regex: '(\\d+)'}, {replace: {pattern, with}}, {jsonpath: $.a}, {xpath: //a}).",
            [
                "anyOf": [
                    ["enum": .strings(Filter.PlainName.allCases.map(\.rawValue) + Filter.functions)],
                    [
                        "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": false,
                        "properties": properties,
                    ],
                ]
            ])
    }
}
