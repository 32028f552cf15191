/// One node of an XPath node-set, copied out of the document.
public struct XMLNodeValue: Sendable, Hashable {
    /// The kind of node, following the XPath data model.
    public enum Kind: String, Sendable, Hashable {
        case element, attribute, text, cdata, comment, processingInstruction, document, namespace, other
    }

    public var kind: Kind
    /// The qualified name (`prefix:local`) of an element or attribute, the target of a processing instruction,
    /// the prefix of a namespace node; `#text`, `#cdata`, `#comment` or `#document` for the others.
    public var name: String
    /// The namespace URI of an element or attribute, if it has one.
    public var namespaceURI: String?
    /// The XPath string value: the concatenated text of an element, an attribute's value, a text node's text.
    public var stringValue: String
    /// The node serialized as XML (`<item id="1">a</item>`, `id="1"` for an attribute).
    public var xml: String

    public init(kind: Kind, name: String, namespaceURI: String? = nil, stringValue: String, xml: String) {
        self.kind = kind
        self.name = name
        self.namespaceURI = namespaceURI
        self.stringValue = stringValue
        self.xml = xml
    }
}
