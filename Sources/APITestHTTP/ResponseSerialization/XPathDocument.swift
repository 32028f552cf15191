import CLibXML2
import Foundation
import Synchronization

/// A parsed XML document (a libxml2 `xmlDoc`) that answers XPath 1.0 queries.
///
/// Immutable after parsing and freed when released. Parsing never touches the network (`XML_PARSE_NONET`) and
/// never substitutes or loads external entities or DTDs (no `XML_PARSE_NOENT`, `XML_PARSE_DTDLOAD`), so an XXE
/// payload cannot read local files. libxml2's messages are captured, not printed: a malformed document is an
/// error naming the line and column of its first problem. Evaluations on one document are serialized.
public final class XPathDocument: @unchecked Sendable {
    let document: xmlDocPtr
    let lock = Mutex(())

    private init(_ document: xmlDocPtr) {
        self.document = document
    }

    deinit {
        xmlFreeDoc(document)
    }

    // MARK: - Parsing

    /// The parser options: no network, CDATA merged into text; entities stay references.
    static let parseOptions = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)

    /// Calls `xmlInitParser()` once per process.
    private static let initialized: Void = { xmlInitParser() }()

    /// Parses an XML document from bytes; its encoding comes from the byte order mark and XML declaration.
    public static func parse(_ data: Data) throws(ResponseSerializationError) -> XPathDocument {
        try parse(data, encoding: nil)
    }

    /// Parses an XML document from a string.
    public static func parse(_ string: String) throws(ResponseSerializationError) -> XPathDocument {
        try parse(Data(string.utf8), encoding: "utf-8")
    }

    /// Parses bytes with an encoding that overrides the document's own (a `Content-Type` charset), if given.
    static func parse(_ data: Data, encoding: String?) throws(ResponseSerializationError) -> XPathDocument {
        _ = initialized
        func failure(_ reason: String, line: Int? = nil, column: Int? = nil) -> ResponseSerializationError {
            let offset = line.map { byteOffset(in: data, line: $0, column: column ?? 1) }
            return ResponseSerializationError(
                decoder: "xml", reason: reason, byteOffset: offset, line: line, column: column)
        }
        guard !data.isEmpty else { throw failure("the body is empty, not an XML document") }
        guard data.count <= Int(Int32.max) else { throw failure("the body is too large for libxml2 (over 2 GiB)") }
        apitest_xml_silence_generic_errors()
        if let encoding {
            // libxml2 ignores an encoding it does not know; a charset the server named must not be ignored.
            guard let handler = xmlFindCharEncodingHandler(encoding) else {
                throw failure("unsupported charset '\(encoding)' in Content-Type")
            }
            xmlCharEncCloseFunc(handler)
        }
        guard let context = xmlNewParserCtxt() else { throw failure("libxml2 could not create a parser context") }
        defer { xmlFreeParserCtxt(context) }
        let collector = XMLErrorCollector()
        context.pointee._private = Unmanaged.passUnretained(collector).toOpaque()
        context.pointee.sax.pointee.serror = { data, error in
            guard let data, let error else { return }
            let parser = data.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = parser.pointee._private else { return }
            Unmanaged<XMLErrorCollector>.fromOpaque(box).takeUnretainedValue().record(error.pointee)
        }
        let document = withExtendedLifetime(collector) {
            data.withUnsafeBytes { buffer in
                let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
                if let encoding {
                    return xmlCtxtReadMemory(context, base, Int32(buffer.count), "response.xml", encoding, parseOptions)
                }
                return xmlCtxtReadMemory(context, base, Int32(buffer.count), "response.xml", nil, parseOptions)
            }
        }
        if let first = collector.firstError {
            if let document { xmlFreeDoc(document) }
            throw failure(
                first.message, line: first.line > 0 ? first.line : nil, column: first.column > 0 ? first.column : nil)
        }
        guard let document else { throw failure("libxml2 could not parse the document") }
        return XPathDocument(document)
    }

    /// The byte offset of a 1-based line and column (columns counted in characters, as libxml2 does).
    static func byteOffset(in data: Data, line: Int, column: Int) -> Int {
        var offset = data.startIndex
        var currentLine = 1
        while currentLine < line, let newline = data[offset...].firstIndex(of: 0x0A) {
            offset = newline + 1
            currentLine += 1
        }
        var remaining = column - 1
        while remaining > 0, offset < data.endIndex, data[offset] != 0x0A {
            offset += 1
            while offset < data.endIndex, data[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        return offset - data.startIndex
    }
}

// MARK: - XMLErrorCollector

/// Keeps the first error libxml2 reports (warnings are ignored), for parsers and XPath contexts.
final class XMLErrorCollector {
    struct Entry {
        var message: String
        var line: Int
        var column: Int
        /// For XPath errors, the offset in the expression.
        var position: Int
    }

    private(set) var firstError: Entry?

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

    func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let code = Int(error.code)
        let message =
            error.message.map { String(cString: $0) }
            ?? Self.xpathMessages[code - Int(XML_XPATH_EXPRESSION_OK.rawValue), default: "libxml2 error \(code)"]
        firstError = Entry(
            message: message.trimmingCharacters(in: .whitespacesAndNewlines), line: Int(error.line),
            column: Int(error.int2), position: Int(error.int1))
    }
}
