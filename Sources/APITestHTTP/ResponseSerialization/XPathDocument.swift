import CLibXML2
public import Foundation
import Synchronization

/// A parsed XML document (a libxml2 `xmlDoc`) that answers XPath 1.0 queries.
///
/// Immutable after parsing and freed when released. Parsing never touches the network (`XML_PARSE_NONET`) and
/// never substitutes or loads external entities or DTDs (no `XML_PARSE_NOENT`, `XML_PARSE_DTDLOAD`), so an XXE
/// payload cannot read local files. Nor is `XML_PARSE_HUGE` ever set, and a document whose entity references
/// would expand past libxml2's amplification limit (more than 1,000,000 bytes and 5 times the document) is refused
/// when parsed, so an XPath value can never grow a "billion laughs" string. libxml2's messages are captured, not printed: a malformed document is an
/// error naming the line and column of its first problem. Evaluations on one document are serialized.
/// libxml2 is loaded on the first parse (`CLibXML2`); a system without it gets an error saying so.
public final class XPathDocument: @unchecked Sendable {
    let document: OpaquePointer
    let lock = Mutex(())

    private init(_ document: OpaquePointer) {
        self.document = document
    }

    deinit {
        apitest_xml_free_document(document)
    }

    // MARK: - Availability

    /// Why libxml2 cannot be used (it is missing or broken), or `nil` when it is loaded. Loads it if need be; a run
    /// with XPath checks asks before sending anything.
    public static func libraryUnavailability() -> String? {
        var problem = apitest_xml_problem()
        defer { apitest_xml_problem_clear(&problem) }
        guard apitest_xml_load(&problem) != APITEST_XML_OK else { return nil }
        return XMLProblem(problem).message
    }

    // MARK: - Parsing

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
        func failure(_ reason: String, line: Int? = nil, column: Int? = nil) -> ResponseSerializationError {
            let offset = line.map { byteOffset(in: data, line: $0, column: column ?? 1) }
            return ResponseSerializationError(
                decoder: "xml", reason: reason, byteOffset: offset, line: line, column: column)
        }
        guard !data.isEmpty else { throw failure("the body is empty, not an XML document") }
        guard data.count <= Int(Int32.max) else { throw failure("the body is too large for libxml2 (over 2 GiB)") }
        var problem = apitest_xml_problem()
        defer { apitest_xml_problem_clear(&problem) }
        var document: OpaquePointer?
        let status = data.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            return apitest_xml_parse(base, Int32(buffer.count), encoding, &document, &problem)
        }
        switch Int(status) {
        case Int(APITEST_XML_OK):
            guard let document else { throw failure("libxml2 could not parse the document") }
            return XPathDocument(document)
        case Int(APITEST_XML_UNAVAILABLE):
            throw failure("XML support is unavailable: \(XMLProblem(problem).message)")
        case Int(APITEST_XML_UNSUPPORTED_ENCODING):
            throw failure("unsupported charset '\(encoding ?? "")' in Content-Type")
        case Int(APITEST_XML_NO_CONTEXT):
            throw failure("libxml2 could not create a parser context")
        case Int(APITEST_XML_LIMIT):
            throw failure(XMLProblem(problem).message)
        default:
            guard problem.found != 0 else { throw failure("libxml2 could not parse the document") }
            let first = XMLProblem(problem)
            throw failure(
                first.message, line: first.line > 0 ? first.line : nil, column: first.column > 0 ? first.column : nil)
        }
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
