import CLibXML2
import Foundation

/// The first error libxml2 reported for a parse or an XPath evaluation, in Swift terms.
struct XMLProblem {
    var message: String
    var line: Int
    var column: Int
    /// For XPath errors, the offset in the expression.
    var position: Int

    /// libxml2 reports XPath errors by code only (its message table is private); these are its messages, by
    /// code minus `XML_XPATH_EXPRESSION_OK`.
    static let xpathMessages: [Int: String] = [
        1: "number encoding", 2: "unfinished literal", 3: "start of literal", 4: "expected $ for variable reference",
        5: "undefined variable", 6: "invalid predicate", 7: "invalid expression", 8: "missing closing curly brace",
        9: "unregistered function", 10: "invalid operand", 11: "invalid type", 12: "invalid number of arguments",
        13: "invalid context size", 14: "invalid context position", 15: "memory allocation error",
        16: "syntax error", 17: "resource error", 18: "sub resource error", 19: "undefined namespace prefix",
        20: "encoding error", 21: "character out of the XML range",
    ]

    /// Reads a problem the C side filled; the caller still clears it.
    init(_ problem: apitest_xml_problem) {
        let text = problem.message.map { String(cString: $0) } ?? ""
        let message =
            text.isEmpty
            ? Self.xpathMessages[Int(problem.xpath_code), default: "libxml2 error \(problem.code)"] : text
        self.message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        line = Int(problem.line)
        column = Int(problem.column)
        position = Int(problem.position)
    }
}
