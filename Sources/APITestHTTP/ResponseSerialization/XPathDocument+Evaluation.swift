import CLibXML2
import Foundation

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
        apitest_xml_silence_generic_errors()
        guard let context = xmlXPathNewContext(document) else {
            return .failure(XPathError(expression: xpath, reason: "libxml2 could not create an XPath context"))
        }
        defer { xmlXPathFreeContext(context) }
        let collector = XMLErrorCollector()
        return withExtendedLifetime(collector) {
            context.pointee.userData = Unmanaged.passUnretained(collector).toOpaque()
            context.pointee.error = { data, error in
                guard let data, let error else { return }
                Unmanaged<XMLErrorCollector>.fromOpaque(data).takeUnretainedValue().record(error.pointee)
            }
            var bindings = rootNamespaces()
            for (prefix, uri) in namespaces { bindings[prefix] = uri }
            for (prefix, uri) in bindings.sorted(by: { $0.key < $1.key }) {
                let status = prefix.withXMLChars { prefix in
                    uri.withXMLChars { xmlXPathRegisterNs(context, prefix, $0) }
                }
                guard status == 0 else {
                    return .failure(
                        XPathError(expression: xpath, reason: "cannot register namespace prefix '\(prefix)'"))
                }
            }
            guard !xpath.utf8.contains(0) else {
                return .failure(XPathError(expression: xpath, reason: "the expression contains a NUL character"))
            }
            guard let object = xpath.withXMLChars({ xmlXPathEvalExpression($0, context) }) else {
                let first = collector.firstError
                return .failure(
                    XPathError(
                        expression: xpath, reason: first?.message ?? "libxml2 could not evaluate the expression",
                        position: first?.position))
            }
            defer { xmlXPathFreeObject(object) }
            switch object.pointee.type {
            case XPATH_NODESET:
                var nodes: [XMLNodeValue] = []
                if let set = object.pointee.nodesetval, let table = set.pointee.nodeTab {
                    let count = Int(set.pointee.nodeNr)
                    nodes.reserveCapacity(count)
                    for index in 0..<count {
                        if let node = table[index] { nodes.append(nodeValue(node)) }
                    }
                }
                return .success(.nodeSet(nodes))
            case XPATH_STRING:
                return .success(.string(object.pointee.stringval.map { String(cString: $0) } ?? ""))
            case XPATH_NUMBER:
                return .success(.number(object.pointee.floatval))
            case XPATH_BOOLEAN:
                return .success(.boolean(object.pointee.boolval != 0))
            default:
                return .failure(
                    XPathError(
                        expression: xpath, reason: "unsupported XPath result type \(object.pointee.type.rawValue)"))
            }
        }
    }

    /// The prefixed namespace declarations of the root element (`xmlns:p="urn:…"`), registered for every
    /// evaluation so that `//p:price` works without repeating them; the default namespace has no prefix and cannot
    /// be used in XPath 1.0 without one.
    private func rootNamespaces() -> [String: String] {
        var result: [String: String] = [:]
        var declaration = xmlDocGetRootElement(document)?.pointee.nsDef
        while let current = declaration {
            if let prefix = current.pointee.prefix, let href = current.pointee.href {
                result[String(cString: prefix)] = String(cString: href)
            }
            declaration = current.pointee.next
        }
        return result
    }

    // MARK: - Nodes

    private func nodeValue(_ node: xmlNodePtr) -> XMLNodeValue {
        let stringValue = ownedString(xmlXPathCastNodeToString(node))
        switch node.pointee.type {
        case XML_NAMESPACE_DECL:
            // XPath namespace nodes are xmlNs records in disguise.
            let namespace = UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlNs.self)
            let prefix = namespace.pointee.prefix.map { String(cString: $0) } ?? ""
            let href = namespace.pointee.href.map { String(cString: $0) } ?? ""
            return XMLNodeValue(
                kind: .namespace, name: prefix, stringValue: href,
                xml: (prefix.isEmpty ? "xmlns" : "xmlns:\(prefix)") + "=\"\(Self.escapeAttribute(href))\"")
        case XML_ATTRIBUTE_NODE:
            let name = qualifiedName(node)
            return XMLNodeValue(
                kind: .attribute, name: name, namespaceURI: namespaceURI(node), stringValue: stringValue,
                xml: "\(name)=\"\(Self.escapeAttribute(stringValue))\"")
        case XML_ELEMENT_NODE:
            return XMLNodeValue(
                kind: .element, name: qualifiedName(node), namespaceURI: namespaceURI(node), stringValue: stringValue,
                xml: serialize(node))
        case XML_TEXT_NODE:
            return XMLNodeValue(kind: .text, name: "#text", stringValue: stringValue, xml: serialize(node))
        case XML_CDATA_SECTION_NODE:
            return XMLNodeValue(kind: .cdata, name: "#cdata", stringValue: stringValue, xml: serialize(node))
        case XML_COMMENT_NODE:
            return XMLNodeValue(kind: .comment, name: "#comment", stringValue: stringValue, xml: serialize(node))
        case XML_PI_NODE:
            return XMLNodeValue(
                kind: .processingInstruction, name: qualifiedName(node), stringValue: stringValue,
                xml: serialize(node))
        case XML_DOCUMENT_NODE:
            let root = xmlDocGetRootElement(document).map { serialize($0) } ?? ""
            return XMLNodeValue(kind: .document, name: "#document", stringValue: stringValue, xml: root)
        default:
            return XMLNodeValue(
                kind: .other, name: qualifiedName(node), stringValue: stringValue, xml: serialize(node))
        }
    }

    private func qualifiedName(_ node: xmlNodePtr) -> String {
        let local = node.pointee.name.map { String(cString: $0) } ?? ""
        if let prefix = node.pointee.ns?.pointee.prefix {
            return "\(String(cString: prefix)):\(local)"
        }
        return local
    }

    private func namespaceURI(_ node: xmlNodePtr) -> String? {
        node.pointee.ns?.pointee.href.map { String(cString: $0) }
    }

    private func serialize(_ node: xmlNodePtr) -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        _ = xmlNodeDump(buffer, document, node, 0, 0)
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    private func ownedString(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        defer { apitest_xml_free(pointer) }
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

// MARK: - xmlChar strings

extension String {
    /// Calls `body` with the string as a NUL-terminated `xmlChar` (UTF-8) pointer.
    func withXMLChars<T>(_ body: (UnsafePointer<xmlChar>) -> T) -> T {
        withCString { pointer in
            pointer.withMemoryRebound(to: xmlChar.self, capacity: utf8.count + 1) { body($0) }
        }
    }
}
