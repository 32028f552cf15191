import CLibXML2
import Foundation
import Synchronization

extension XPathDocument {
    // MARK: - XPath

    /// Evaluates an XPath 1.0 expression against the document.
    ///
    /// - Parameter namespaces: prefixes to register (`["a": "urn:example:a"]`) for names like `//a:item`. The
    ///   prefixes declared on the root element are registered too, unless `namespaces` binds them otherwise.
    /// - Throws: ``XPathError`` for an expression libxml2 cannot compile or evaluate (syntax errors, unknown
    ///   functions, unregistered prefixes).
    public func evaluate(_ xpath: String, namespaces: [String: String] = [:]) throws(XPathError) -> XPathResult {
        let result = lock.withLock { _ in evaluateLocked(xpath, namespaces: namespaces) }
        return try result.get()
    }

    private func evaluateLocked(_ xpath: String, namespaces: [String: String]) -> Result<XPathResult, XPathError> {
        guard !xpath.utf8.contains(0) else {
            return .failure(XPathError(expression: xpath, reason: "the expression contains a NUL character"))
        }
        var bindings = rootNamespaces()
        for (prefix, uri) in namespaces { bindings[prefix] = uri }
        let sorted = bindings.sorted(by: { $0.key < $1.key })
        var problem = apitest_xml_problem()
        defer { apitest_xml_problem_clear(&problem) }
        var object: OpaquePointer?
        let prefixes = sorted.map { UnsafePointer(strdup($0.key)) }
        let uris = sorted.map { UnsafePointer(strdup($0.value)) }
        defer { for copy in prefixes + uris { free(UnsafeMutablePointer(mutating: copy)) } }
        let status = apitest_xpath_evaluate(document, xpath, prefixes, uris, Int32(sorted.count), &object, &problem)
        switch Int(status) {
        case Int(APITEST_XML_OK):
            break
        case Int(APITEST_XML_NAMESPACE_FAILED):
            let prefix = sorted[Int(problem.position)].key
            return .failure(XPathError(expression: xpath, reason: "cannot register namespace prefix '\(prefix)'"))
        case Int(APITEST_XML_NO_CONTEXT):
            return .failure(XPathError(expression: xpath, reason: "libxml2 could not create an XPath context"))
        case Int(APITEST_XML_UNAVAILABLE):
            return .failure(
                XPathError(expression: xpath, reason: "XML support is unavailable: \(XMLProblem(problem).message)"))
        default:
            guard problem.found != 0 else {
                return .failure(XPathError(expression: xpath, reason: "libxml2 could not evaluate the expression"))
            }
            let first = XMLProblem(problem)
            return .failure(XPathError(expression: xpath, reason: first.message, position: first.position))
        }
        guard let object else {
            return .failure(XPathError(expression: xpath, reason: "libxml2 could not evaluate the expression"))
        }
        defer { apitest_xpath_free_result(object) }
        switch Int(apitest_xpath_result_type(object)) {
        case Int(APITEST_XPATH_NODE_SET):
            let count = Int(apitest_xpath_node_count(object))
            var nodes: [XMLNodeValue] = []
            nodes.reserveCapacity(count)
            for index in 0..<count {
                guard let node = apitest_xpath_node_at(object, Int32(index)) else { continue }
                guard let value = nodeValue(node) else {
                    return .failure(
                        XPathError(
                            expression: xpath,
                            reason: "the string value of node \(index + 1) could not be computed (out of memory)"))
                }
                nodes.append(value)
            }
            return .success(.nodeSet(nodes))
        case Int(APITEST_XPATH_STRING):
            // libxml2 always gives a string result a value; none means it ran out of memory, never "".
            guard let text = apitest_xpath_string(object) else {
                return .failure(
                    XPathError(expression: xpath, reason: "the string result could not be computed (out of memory)"))
            }
            return .success(.string(String(cString: text)))
        case Int(APITEST_XPATH_NUMBER):
            return .success(.number(apitest_xpath_number(object)))
        case Int(APITEST_XPATH_BOOLEAN):
            return .success(.boolean(apitest_xpath_boolean(object) != 0))
        default:
            return .failure(
                XPathError(
                    expression: xpath,
                    reason: "unsupported XPath result type \(apitest_xpath_result_raw_type(object))"))
        }
    }

    /// The prefixed namespace declarations of the root element (`xmlns:p="urn:…"`), registered for every
    /// evaluation so that `//p:price` works without repeating them; the default namespace has no prefix and cannot
    /// be used in XPath 1.0 without one.
    private func rootNamespaces() -> [String: String] {
        var result: [String: String] = [:]
        var declaration = apitest_xml_root_element(document).flatMap { apitest_xml_namespace_declarations($0) }
        while let current = declaration {
            if let prefix = apitest_xml_node_name(current), let href = apitest_xml_node_namespace_uri(current) {
                result[String(cString: prefix)] = String(cString: href)
            }
            declaration = apitest_xml_next_namespace(current)
        }
        return result
    }

    // MARK: - Nodes

    /// The node's value, or `nil` when libxml2 could not compute its string value (memory ran out): never a
    /// value with an empty string in its place.
    private func nodeValue(_ node: OpaquePointer) -> XMLNodeValue? {
        guard let pointer = apitest_xml_node_string_value(node) else { return nil }
        let stringValue = ownedString(pointer)
        switch Int(apitest_xml_node_kind(node)) {
        case Int(APITEST_XML_NODE_NAMESPACE):
            let prefix = apitest_xml_node_name(node).map { String(cString: $0) } ?? ""
            let href = apitest_xml_node_namespace_uri(node).map { String(cString: $0) } ?? ""
            return XMLNodeValue(
                kind: .namespace, name: prefix, stringValue: href,
                xml: (prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)") + "=\"\(Self.escapeAttribute(href))\"")
        case Int(APITEST_XML_NODE_ATTRIBUTE):
            let name = qualifiedName(node)
            return XMLNodeValue(
                kind: .attribute, name: name, namespaceURI: namespaceURI(node), stringValue: stringValue,
                xml: "\(name)=\"\(Self.escapeAttribute(stringValue))\"")
        case Int(APITEST_XML_NODE_ELEMENT):
            return XMLNodeValue(
                kind: .element, name: qualifiedName(node), namespaceURI: namespaceURI(node), stringValue: stringValue,
                xml: serialize(node))
        case Int(APITEST_XML_NODE_TEXT):
            return XMLNodeValue(kind: .text, name: "#text", stringValue: stringValue, xml: serialize(node))
        case Int(APITEST_XML_NODE_CDATA):
            return XMLNodeValue(kind: .cdata, name: "#cdata", stringValue: stringValue, xml: serialize(node))
        case Int(APITEST_XML_NODE_COMMENT):
            return XMLNodeValue(kind: .comment, name: "#comment", stringValue: stringValue, xml: serialize(node))
        case Int(APITEST_XML_NODE_PROCESSING_INSTRUCTION):
            return XMLNodeValue(
                kind: .processingInstruction, name: qualifiedName(node), stringValue: stringValue,
                xml: serialize(node))
        case Int(APITEST_XML_NODE_DOCUMENT):
            let root = apitest_xml_root_element(document).map { serialize($0) } ?? ""
            return XMLNodeValue(kind: .document, name: "#document", stringValue: stringValue, xml: root)
        default:
            return XMLNodeValue(
                kind: .other, name: qualifiedName(node), stringValue: stringValue, xml: serialize(node))
        }
    }

    private func qualifiedName(_ node: OpaquePointer) -> String {
        let local = apitest_xml_node_name(node).map { String(cString: $0) } ?? ""
        if let prefix = apitest_xml_node_namespace_prefix(node) {
            return "\(String(cString: prefix)):\(local)"
        }
        return local
    }

    private func namespaceURI(_ node: OpaquePointer) -> String? {
        apitest_xml_node_namespace_uri(node).map { String(cString: $0) }
    }

    private func serialize(_ node: OpaquePointer) -> String {
        ownedString(apitest_xml_node_serialize(document, node))
    }

    /// A string from a malloc'd C string, which it frees.
    private func ownedString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func escapeAttribute(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
