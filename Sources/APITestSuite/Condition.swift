package import APITestSupport

// MARK: - Condition

/// A `when:` condition of a step or a test, parsed and checked when the suite loads, evaluated when it is reached.
package struct Condition: Sendable, Hashable {
    /// The expression.
    package var expression: Expression
    /// The condition as written, for reports (`when: false ({{ count }} > 0)`).
    package var source: String
    /// Where it is written.
    package var location: SourceLocation

    /// A condition of `expression`, written as `source` at `location`.
    package init(expression: Expression, source: String, location: SourceLocation) {
        self.expression = expression
        self.source = source
        self.location = location
    }
}

// MARK: - StepLoop

/// `forEach: {items, as, maxItems}` on a step: the step runs once for each element of a list captured earlier.
package struct StepLoop: Sendable, Hashable {
    /// The list, usually one placeholder (`"{{ petIds }}"`).
    package var items: Template
    /// The name each element is bound to in the step.
    package var variable: String
    /// The most elements run; a longer list errors the step (default 1,000).
    package var maxItems: Int
    /// Where `forEach` is written.
    package var location: SourceLocation

    /// The default of `maxItems`.
    package static let defaultMaxItems = 1000

    /// A loop over `items` binding `variable`.
    package init(items: Template, variable: String, maxItems: Int, location: SourceLocation) {
        self.items = items
        self.variable = variable
        self.maxItems = maxItems
        self.location = location
    }

    /// The keys of a step's `forEach`.
    package enum Key: String, SuiteKey {
        /// Every key by its name, built once (``SuiteKey/init(named:)``).
        static let byName = KeyTable(allCases)

        case items
        case `as`
        case maxItems
    }

    /// The keys of a step's `forEach`, as written.
    package static let keys = Key.names
}
