/// An XPath expression that could not be compiled or evaluated.
public struct XPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression as given.
    public var expression: String
    /// What is wrong, as libxml2 reports it ("Invalid expression", "Undefined namespace prefix", ...).
    public var reason: String
    /// The 0-based offset in the expression where libxml2 stopped, when it reports one.
    public var position: Int?

    public init(expression: String, reason: String, position: Int? = nil) {
        self.expression = expression
        self.reason = reason
        self.position = position
    }

    /// "invalid XPath '//a[': Invalid predicate (at offset 4)".
    public var description: String {
        let at = position.map { " (at offset \($0))" } ?? ""
        return "invalid XPath '\(expression)': \(reason)\(at)"
    }
}
