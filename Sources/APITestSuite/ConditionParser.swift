import APITestJSON
import APITestSupport
import APITestYAML

// MARK: - ConditionParser

/// `when:` (a condition) and a step's `forEach:` (a loop over a captured list).
enum ConditionParser {
    /// `when: EXPRESSION` (or `when: true` / `when: false`).
    static func condition(_ node: YAMLNode, in context: SuiteParseContext) -> Condition? {
        guard let scalar = context.scalar(node) else {
            context.typeError(expected: "a condition (a string)", for: "when", found: node)
            return nil
        }
        let start = context.location(of: node)
        if case .bool(let value) = YAMLScalar(scalar) {
            return Condition(expression: .literal(.bool(value)), source: scalar.string, location: start)
        }
        let text = scalar.string
        guard !text.trimmingCharacters(in: " \t").isEmpty else {
            context.error("'when' is empty; write a condition such as '{{ count }} > 0'", at: node)
            return nil
        }
        do {
            let expression = try ExpressionParser.parse(text)
            if let problem = notACondition(expression) {
                context.error("'when' is a condition, true or false; '\(text)' is \(problem)", at: node)
                return nil
            }
            return Condition(expression: expression, source: text, location: start)
        } catch {
            let at = context.text.locate(pieceAt: error.offset, length: error.length, in: text, valueStart: start)
            context.error(error.message, at: at, length: error.length)
            return nil
        }
    }

    /// What an expression whose value can never be true or false is (`5`, `[1]`, `'yes'`), in words; `nil` for
    /// one that can be.
    private static func notACondition(_ expression: Expression) -> String? {
        if case .literal(.string(let text)) = expression {
            return ["true", "false"].contains(text.lowercased()) ? nil : "a string"
        }
        switch ExpressionFunctions.staticKind(of: expression) {
        case .number: return "a number"
        case .list: return "a list"
        case .object: return "an object"
        case .string, .bool, .null, .unknown: return nil
        }
    }

    /// A step's `forEach: {items: "{{ list }}", as: name, maxItems: 1000}`.
    static func loop(_ node: YAMLNode, in context: SuiteParseContext) -> StepLoop? {
        guard let entries = context.mapping(node, for: "forEach") else { return nil }
        context.checkKeys(entries, of: StepLoop.Key.self, in: "a step's forEach")
        var failed = false
        for key in [StepLoop.Key.items, .as] where entries[key] == nil {
            context.error("a step's 'forEach' needs '\(key.rawValue)'", at: node)
            failed = true
        }
        let items = entries[StepLoop.Key.items].flatMap { context.template($0.value, for: "items") }
        if let items, items.isLiteral {
            context.error(
                "'items' is a list captured earlier, written as a placeholder: \"{{ ids }}\"",
                at: entries[StepLoop.Key.items]!.value)
            failed = true
        }
        var variable: String?
        if let entry = entries[StepLoop.Key.as], let name = context.text(entry.value, for: "as") {
            if context.checkVariableName(name, at: entry.value, what: "forEach variable") { variable = name }
        }
        var maxItems = StepLoop.defaultMaxItems
        if let entry = entries[StepLoop.Key.maxItems] {
            guard let value = context.integer(entry.value, for: "maxItems", in: 1...1_000_000) else { return nil }
            maxItems = value
        }
        guard !failed, let items, let variable else { return nil }
        return StepLoop(items: items, variable: variable, maxItems: maxItems, location: context.location(of: node))
    }
}

// MARK: - Schema

extension StepLoop.Key {
    var schema: SchemaValue {
        switch self {
        case .items: .described("The list, as a placeholder: \"{{ ids }}\".", ["type": "string", "pattern": #"\{\{"#])
        case .as:
            .described(
                "The name each element takes in the step.", ["type": "string", "pattern": SuiteSchema.variableName])
        case .maxItems:
            .described(
                "The longest list run (default 1000); a longer one errors the step.",
                ["type": "integer", "minimum": 1, "maximum": 1_000_000])
        }
    }

    /// The definition of a step's `forEach:`.
    static var definition: SchemaValue {
        .described(
            "Run the step once for each element of a list captured earlier; each iteration is a named step in "
                + "reports (NAME › I/N (as=VALUE)).",
            ["type": "object", "additionalProperties": false, "required": ["items", "as"], "properties": properties])
    }
}
