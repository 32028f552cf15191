import APITestTestSupport
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct XMLResponseSerializerTests {
    let catalog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog xmlns="urn:example:catalog" xmlns:p="urn:example:price" version="2">
          <item id="1"><name>Apple</name><p:price currency="EUR">1.50</p:price></item>
          <item id="2"><name>Pear &amp; Co</name><p:price currency="USD">2.25</p:price></item>
          <!-- a comment -->
          <note><![CDATA[raw <text>]]></note>
        </catalog>
        """

    func document() throws -> XPathDocument {
        let decoded = try XMLResponseSerializer().decode(
            ResponseFixtures.response(catalog, contentType: "text/xml; charset=utf-8"))
        guard case .xml(let document) = decoded else { throw XPathError(expression: "", reason: "not XML") }
        return document
    }

    let namespaces = ["c": "urn:example:catalog", "p": "urn:example:price"]

    @Test func elementsWithNamespaces() throws {
        let result = try document().evaluate("//c:item/c:name", namespaces: namespaces)
        guard case .nodeSet(let nodes) = result else {
            Issue.record("not a node-set: \(result)")
            return
        }
        #expect(nodes.map(\.stringValue) == ["Apple", "Pear & Co"])
        #expect(nodes.map(\.kind) == [.element, .element])
        #expect(nodes[0].name == "name")
        #expect(nodes[0].namespaceURI == "urn:example:catalog")
        #expect(nodes[1].xml == "<name>Pear &amp; Co</name>")
        // Without the prefix registered, the default namespace hides the elements.
        #expect(try document().evaluate("//item") == .nodeSet([]))
    }

    @Test func prefixedElementsAndAttributes() throws {
        let prices = try document().evaluate("//p:price", namespaces: namespaces)
        guard case .nodeSet(let nodes) = prices else {
            Issue.record("not a node-set: \(prices)")
            return
        }
        #expect(nodes.map(\.name) == ["p:price", "p:price"])
        #expect(nodes.first?.namespaceURI == "urn:example:price")
        #expect(nodes.first?.xml == #"<p:price currency="EUR">1.50</p:price>"#)

        let attributes = try document().evaluate("//c:item/@id", namespaces: namespaces)
        guard case .nodeSet(let ids) = attributes else {
            Issue.record("not a node-set: \(attributes)")
            return
        }
        #expect(ids.map(\.kind) == [.attribute, .attribute])
        #expect(ids.map(\.name) == ["id", "id"])
        #expect(ids.map(\.stringValue) == ["1", "2"])
        #expect(ids.first?.xml == #"id="1""#)
    }

    @Test func rootPrefixesAreRegisteredUnlessRebound() throws {
        let document = try document()
        // p is declared on the root element: usable without passing it.
        #expect(try document.evaluate("count(//p:price)") == .number(2))
        #expect(try document.evaluate("string(//p:price/@currency)") == .string("EUR"))
        // A caller's binding wins over the document's.
        #expect(try document.evaluate("count(//p:price)", namespaces: ["p": "urn:other"]) == .number(0))
    }

    @Test func textCommentAndCDATANodes() throws {
        let texts = try document().evaluate("//c:name/text()", namespaces: namespaces)
        guard case .nodeSet(let nodes) = texts else {
            Issue.record("not a node-set: \(texts)")
            return
        }
        #expect(nodes.map(\.kind) == [.text, .text])
        #expect(nodes.map(\.stringValue) == ["Apple", "Pear & Co"])
        #expect(nodes[1].xml == "Pear &amp; Co")

        let comment = try document().evaluate("//comment()")
        guard case .nodeSet(let comments) = comment else {
            Issue.record("not a node-set: \(comment)")
            return
        }
        #expect(comments.map(\.kind) == [.comment])
        #expect(comments.first?.stringValue == " a comment ")
        // CDATA is merged into text (XML_PARSE_NOCDATA).
        #expect(try document().evaluate("string(//c:note)", namespaces: namespaces) == .string("raw <text>"))
    }

    @Test func functionResults() throws {
        let document = try document()
        #expect(try document.evaluate("count(//c:item)", namespaces: namespaces) == .number(2))
        #expect(try document.evaluate("sum(//p:price)", namespaces: namespaces) == .number(3.75))
        #expect(try document.evaluate("string(/c:catalog/@version)", namespaces: namespaces) == .string("2"))
        #expect(try document.evaluate("boolean(//c:item[@id='2'])", namespaces: namespaces) == .boolean(true))
        #expect(try document.evaluate("boolean(//c:missing)", namespaces: namespaces) == .boolean(false))
        #expect(try document.evaluate("count(//c:item) > 1", namespaces: namespaces) == .boolean(true))
        #expect(try document.evaluate("count(//c:item)", namespaces: namespaces).stringValue == "2")
        #expect(try document.evaluate("//p:price/@currency", namespaces: namespaces).stringValue == "EUR")
    }

    @Test func invalidXPathIsAClearError() throws {
        let document = try document()
        for expression in ["//item[", "count(", "//x:item", "unknown-function(1)", "///"] {
            do {
                let result = try document.evaluate(expression)
                Issue.record("'\(expression)' evaluated to \(result)")
            } catch {
                #expect(error.expression == expression)
                #expect(!error.reason.isEmpty)
                #expect(error.description.hasPrefix("invalid XPath '\(expression)': "))
            }
        }
        do {
            _ = try document.evaluate("//x:item")
        } catch {
            #expect(error.reason.lowercased().contains("namespace"))
        }
    }

    @Test func malformedXMLNamesLineAndColumn() throws {
        let text = "<?xml version=\"1.0\"?>\n<a>\n  <b>text</c>\n</a>\n"
        let error = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response(text, contentType: "application/xml")))
        #expect(error.decoder == "xml")
        #expect(error.line == 3)
        #expect(error.column != nil)
        #expect(error.reason.contains("mismatch"))
        let offset = try #require(error.byteOffset)
        #expect(offset >= 26 && offset <= 40) // within line 3
        #expect(error.description.hasPrefix("xml decoder: line 3, column "))
    }

    @Test func longMessagesAreKeptWhole() throws {
        // libxml2 names the mismatched elements in its message; a long name must not cut off the rest.
        let name = String(repeating: "a", count: 600) + "é"
        let text = "<\(name)>\n</b>\n"
        let error = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response(text, contentType: "application/xml")))
        // The name alone is 602 bytes: all of it is there, and what libxml2 wrote after it.
        #expect(error.reason.contains(name))
        #expect(error.reason.count > name.count + 10, "\(error.reason.suffix(40))")
    }

    @Test func emptyAndTruncatedBodies() throws {
        let empty = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response("", contentType: "text/xml")))
        #expect(empty.reason.contains("empty"))
        let truncated = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response("<a><b>", contentType: "text/xml")))
        #expect(truncated.line == 1)
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("xxe-\(UUID().uuidString).txt")
        try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let payload = """
            <?xml version="1.0"?>
            <!DOCTYPE data [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <data>before &xxe; after</data>
            """
        let response = ResponseFixtures.response(payload, contentType: "application/xml")
        do {
            guard case .xml(let document) = try XMLResponseSerializer().decode(response) else {
                Issue.record("not XML")
                return
            }
            let text = try document.evaluate("string(/data)").stringValue
            #expect(!text.contains("TOP-SECRET"))
            let all = try document.evaluate("/data")
            guard case .nodeSet(let nodes) = all else {
                Issue.record("not a node-set")
                return
            }
            #expect(!(nodes.first?.xml.contains("TOP-SECRET") ?? true))
        } catch {
            // Refusing the document is acceptable too; reading the file is not.
            #expect(!"\(error)".contains("TOP-SECRET"))
        }
        // A parameter entity pulling an external DTD must not be loaded either.
        let parameter = """
            <?xml version="1.0"?>
            <!DOCTYPE data [<!ENTITY % ext SYSTEM "\(secret.absoluteString)"> %ext;]>
            <data>x</data>
            """
        if case .xml(let document) = try? XMLResponseSerializer().decode(
            ResponseFixtures.response(parameter, contentType: "application/xml"))
        {
            #expect(!(try document.evaluate("string(/)").stringValue.contains("TOP-SECRET")))
        }
    }

    @Test func contentTypeCharsetAppliesToUndeclaredDocuments() throws {
        let latin1 = Data([0x3C, 0x72, 0x3E, 0x63, 0x61, 0x66, 0xE9, 0x3C, 0x2F, 0x72, 0x3E]) // <r>café</r>
        let decoded = try XMLResponseSerializer().decode(
            ResponseFixtures.response(latin1, contentType: "text/xml; charset=iso-8859-1"))
        guard case .xml(let document) = decoded else {
            Issue.record("not XML")
            return
        }
        #expect(try document.evaluate("string(/r)") == .string("café"))
        // Read as UTF-8 (no charset, no declaration), the same bytes are malformed.
        let error = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response(latin1, contentType: "text/xml")))
        #expect(error.line == 1)
        let unknown = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response("<r/>", contentType: "text/xml; charset=klingon")))
        #expect(unknown.description == "xml decoder: unsupported charset 'klingon' in Content-Type")
    }

    @Test func entityExpansionBombIsRefused() throws {
        var declarations = #"<!ENTITY a0 "lollollollollollollollollollol">"#
        for level in 1...12 {
            declarations += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE r [\(declarations)]><r>&a12;</r>"
        let response = ResponseFixtures.response(bomb, contentType: "application/xml")
        let cpuStart = threadCPUTime()
        // Entities stay references (no XML_PARSE_NOENT); a document that would expand past the amplification limit
        // is refused when parsed, so no XPath value (or an empty one in its place) is ever made of it.
        let error = try #require(ResponseFixtures.decodeError(XMLResponseSerializer(), response))
        #expect(error.decoder == "xml")
        // Refused before any expansion: milliseconds of this thread's CPU (wall time is what a busy machine makes it).
        #expect(threadCPUTime() - cpuStart < 2)
    }

    /// Issue 12 item 3: one flat internal entity of 50,000 characters referenced 20,000 times (a 1 MB document, 1 GB
    /// expanded) passes libxml2 2.9's nested-entity check; it is refused with a message naming the entity and the
    /// limit, quickly and without the expansion ever being built.
    @Test func flatEntityAmplificationIsRefusedNamingTheEntity() throws {
        let document =
            "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY lol \"" + String(repeating: "x", count: 50_000)
            + "\">]><r><v>" + String(repeating: "&lol;", count: 20_000) + "</v></r>"
        let cpuStart = threadCPUTime()
        let error = try #require(
            ResponseFixtures.decodeError(
                XMLResponseSerializer(), ResponseFixtures.response(document, contentType: "application/xml")))
        #expect(error.reason.contains("entity 'lol' expands past the entity-amplification limit"), "\(error)")
        #expect(error.reason.contains("5 times the \(document.utf8.count)-byte document"), "\(error)")
        // Without building the expansion (1 GB): well under a second of this thread's CPU.
        #expect(threadCPUTime() - cpuStart < 1)
        // Parsed directly, the same.
        #expect(throws: ResponseSerializationError.self) { try XPathDocument.parse(document) }
    }

    /// libxml2's own limits stay on (never `XML_PARSE_HUGE`): a text node over its 10,000,000-byte limit is refused.
    @Test func libxml2LimitsStayOn() {
        let document = "<r>" + String(repeating: "x", count: 10_000_001) + "</r>"
        #expect(throws: ResponseSerializationError.self) { try XPathDocument.parse(document) }
    }

    /// Entities within the limit still expand in string values, attributes included.
    @Test func entitiesWithinTheLimitExpand() throws {
        let entity = String(repeating: "y", count: 1000)
        let document = try XPathDocument.parse(
            "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e \"\(entity)\">]><r a=\"&e;\"><v>&e;-&e;</v></r>")
        #expect(try document.evaluate("string(/r/v)") == .string(entity + "-" + entity))
        #expect(try document.evaluate("string(/r/@a)") == .string(entity))
        guard case .nodeSet(let nodes) = try document.evaluate("/r/v") else {
            Issue.record("not a node-set")
            return
        }
        #expect(nodes.first?.stringValue == entity + "-" + entity)
        // Many references to a small entity stay under 1,000,000 bytes: allowed (libxml2's floor).
        let many = try XPathDocument.parse(
            "<!DOCTYPE r [<!ENTITY s \"abc\">]><r>" + String(repeating: "&s;", count: 20_000) + "</r>")
        #expect(try many.evaluate("string-length(/r)") == .number(60_000))
    }

    @Test func parsesFromString() throws {
        let document = try XPathDocument.parse("<r><v>é</v></r>")
        #expect(try document.evaluate("string(/r/v)") == .string("é"))
        #expect(throws: ResponseSerializationError.self) { try XPathDocument.parse("<r>") }
    }

    @Test func acceptedContentTypes() {
        let serializer = XMLResponseSerializer()
        for type in ["application/xml", "text/xml; charset=utf-8", "application/atom+xml", "image/svg+xml"] {
            #expect(serializer.accepts(ResponseFixtures.response("<a/>", contentType: type)), "\(type)")
        }
        #expect(!serializer.accepts(ResponseFixtures.response("<a/>", contentType: "text/html")))
        #expect(serializer.accepts(ResponseFixtures.response("<?xml version=\"1.0\"?><a/>")))
        #expect(!serializer.accepts(ResponseFixtures.response("<a/>", contentType: "application/octet-stream")))
    }

    @Test func concurrentEvaluationsOnOneDocument() async throws {
        let document = try document()
        let namespaces = namespaces
        let counts = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    guard case .number(let count) = try? document.evaluate("count(//c:item)", namespaces: namespaces)
                    else { return -1 }
                    return count
                }
            }
            var all: [Double] = []
            for await count in group { all.append(count) }
            return all
        }
        #expect(counts == Array(repeating: 2, count: 8))
    }
}
