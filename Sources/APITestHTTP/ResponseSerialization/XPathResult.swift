/// The value of an XPath 1.0 expression: a node-set, or the string, number or boolean of a function or operator.
public enum XPathResult: Sendable, Hashable {
    /// Nodes in document order (`//item`, `/a/@b`, `//text()`).
    case nodeSet([XMLNodeValue])
    /// A string result (`string(/a/@b)`, `concat(...)`).
    case string(String)
    /// A number result (`count(//item)`, `sum(//price)`); NaN when a conversion fails, as XPath defines.
    case number(Double)
    /// A boolean result (`boolean(//error)`, `count(//item) > 2`).
    case boolean(Bool)

    /// The XPath 1.0 string value: the first node's string value for a node-set (empty when empty), numbers
    /// without a trailing `.0` for integral values.
    public var stringValue: String {
        switch self {
        case .nodeSet(let nodes): return nodes.first?.stringValue ?? ""
        case .string(let text): return text
        case .number(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        }
    }
}
