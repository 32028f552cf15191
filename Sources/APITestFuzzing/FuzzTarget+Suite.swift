import APITestJSON
import APITestSuite
import APITestSupport

// MARK: - The suite loader and the expression evaluator

extension FuzzTarget {
    /// The file name suites are loaded as: a folder that does not exist, so an `include` or a `bodyFile` names
    /// nothing the fuzzer could read or block on.
    static let suitePath = "/nonexistent-apitest-fuzz/suite.yaml"

    /// Loads `bytes` as a suite file.
    static func loadSuite(_ bytes: [UInt8]) {
        var loader = SuiteLoader(environment: ["TOKEN": "secret-token", "HOME": "/root"], overrides: [:])
        loader.parsesTestsInParallel = false
        _ = try? loader.load(source: text(bytes), file: suitePath)
    }

    /// The context expressions are evaluated in: values of every JSON type, among them the extremes that
    /// arithmetic and indexing must survive.
    static let expressionContext: TemplateContext = {
        var context = TemplateContext(environment: ["TOKEN": "secret-token"])
        let values: [(String, JSONValue)] = [
            ("s", "héllo wörld"),
            ("empty", ""),
            ("n", 42),
            ("min", .number(JSONNumber(Int64.min))),
            ("max", .number(JSONNumber(Int64.max))),
            ("f", 2.5),
            ("t", true),
            ("z", nil),
            ("list", [1, "two", nil]),
            ("obj", ["a": 1, "b": []]),
        ]
        for (name, value) in values {
            context.set(name, value, secret: false)
        }
        return context
    }()

    /// Parses `bytes` as an expression and evaluates it.
    static func evaluateExpression(_ bytes: [UInt8]) {
        let source = text(bytes)
        guard let expression = try? ExpressionParser.parse(source) else { return }
        _ = try? expression.evaluate(expressionContext, source: source, location: nil, undefinedIsNull: true)
    }
}
