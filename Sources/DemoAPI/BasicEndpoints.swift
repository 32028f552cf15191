import Foundation
import Hummingbird

// MARK: - BasicEndpoints

/// Small fixed-answer endpoints: health, sample documents, status codes, delays and request introspection.
enum BasicEndpoints {
    static let sampleJSON: JSON = [
        "slideshow": [
            "title": "Sample Slide Show",
            "author": "Yours Truly",
            "date": "date of publication",
            "slides": [
                ["title": "Wake up to WonderWidgets!", "type": "all"],
                [
                    "title": "Overview", "type": "all",
                    "items": ["Why WonderWidgets are great", "Who buys WonderWidgets"],
                ],
            ],
        ]
    ]

    static let sampleXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog>
          <book id="bk101">
            <title>Swift on the Server</title>
            <author>Ada Lovelace</author>
            <price currency="EUR">39.95</price>
          </book>
          <book id="bk102">
            <title>HTTP in Depth</title>
            <author>Tim Berners-Lee</author>
            <price currency="EUR">24.50</price>
          </book>
          <book id="bk103">
            <title>Testing APIs Declaratively</title>
            <author>Grace Hopper</author>
            <price currency="EUR">12.00</price>
          </book>
        </catalog>

        """

    static let sampleHTML = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>apitest demo</title>
        </head>
        <body>
          <h1>apitest demo</h1>
          <p id="intro">The demo API that apitest's examples and integration tests run against.</p>
          <ul>
            <li><a href="/json">/json</a></li>
            <li><a href="/xml">/xml</a></li>
            <li><a href="/api/users">/api/users</a></li>
          </ul>
        </body>
        </html>

        """

    /// Text that every supported charset can carry, with a few Latin-1 letters beyond ASCII.
    static let sampleText = "Grüße aus der Demo: café, naïve, Ærøskøbing, £5 ½\n"

    static func routes() -> [Route] {
        [
            Route(["GET"], "/health") { _ in Reply.json(["status": "ok"]) },
            Route(["GET"], "/json") { _ in Reply.json(sampleJSON) },
            Route(["GET"], "/xml") { _ in Reply.text(sampleXML, contentType: "application/xml") },
            Route(["GET"], "/html") { _ in Reply.text(sampleHTML, contentType: "text/html; charset=utf-8") },
            // Bodies that do not match their Content-Type, for decoder errors.
            Route(["GET"], "/broken/json") { _ in
                Reply.text("{\"users\": [\n  {\"id\": 1,}\n]}\n", contentType: "application/json")
            },
            Route(["GET"], "/broken/xml") { _ in
                Reply.text("<?xml version=\"1.0\"?>\n<catalog>\n  <book></catalog>\n", contentType: "application/xml")
            },
            Route(["GET"], "/xml/entities") { request in try entities(request) },
            Route(["GET"], "/text") { request in try text(request) },
            Route(nil, "/status/{code}") { request in try status(request) },
            Route(["GET"], "/delay/{ms}") { request in
                let milliseconds = try request.intParameter("ms", in: 0...60000)
                try await Task.sleep(for: .milliseconds(milliseconds))
                return Reply.json(["delayed": .int(milliseconds)])
            },
            Route(["GET"], "/headers") { request in
                var order: [String] = []
                var values: [String: [String]] = [:]
                for (name, value) in request.orderedHeaders {
                    let key = order.first { $0.lowercased() == name.lowercased() } ?? name
                    if values[key] == nil { order.append(key) }
                    values[key, default: []].append(value)
                }
                let headers = order.map { name -> (String, JSON) in
                    let separator = name.lowercased() == "cookie" ? "; " : ", "
                    return (name, .string((values[name] ?? []).joined(separator: separator)))
                }
                return Reply.json(["headers": .object(headers)])
            },
            Route(["GET"], "/ip") { request in
                Reply.json(["origin": .string(request.context.remoteAddress?.ipAddress)])
            },
            Route(["GET"], "/user-agent") { request in
                Reply.json(["userAgent": .string(request.header(.userAgent))])
            },
        ]
    }

    /// `GET /xml/entities?count=N&size=S`: an XML document whose one internal entity (`&lol;`, S letters, 50,000 by
    /// default) is referenced N times (20,000 by default) in `/r/v`, for entity-expansion tests: about S + 5N bytes
    /// on the wire, S × N expanded.
    private static func entities(_ request: DemoRequest) throws(DemoError) -> Response {
        let count = try request.intQuery("count", default: 20000, in: 0...1_000_000)
        let size = try request.intQuery("size", default: 50000, in: 0...1_000_000)
        let document =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY lol \"" + String(repeating: "x", count: size)
            + "\">]>\n<r><v>" + String(repeating: "&lol;", count: count) + "</v></r>\n"
        return Reply.text(document, contentType: "application/xml")
    }

    /// `ANY /status/{code}`: that status with `{"status": code}` (no body for 204 and 304).
    private static func status(_ request: DemoRequest) throws(DemoError) -> Response {
        let code = try request.intParameter("code", in: 100...599)
        guard code >= 200 else { throw .badRequest("informational status \(code) cannot be a final response") }
        let status = Reply.status(code)
        if code == 204 || code == 304 { return Reply.empty(status: status) }
        return Reply.json(["status": .int(code)], status: status)
    }

    /// `GET /text?charset=`: `sampleText` encoded in the requested charset.
    private static func text(_ request: DemoRequest) throws(DemoError) -> Response {
        let name = (request.query("charset") ?? "utf-8").lowercased()
        let encodings: [String: String.Encoding] = [
            "utf-8": .utf8, "utf8": .utf8, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1,
            "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "us-ascii": .ascii,
            "utf-16": .utf16, "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
        ]
        guard let encoding = encodings[name] else {
            throw .badRequest(
                "unsupported charset '\(name)'; use one of \(encodings.keys.sorted().joined(separator: ", "))")
        }
        // Foundation's lossy ASCII conversion keeps Latin-1 bytes on Linux; replace non-ASCII letters explicitly.
        let text =
            encoding == .ascii ? String(sampleText.unicodeScalars.map { $0.isASCII ? Character($0) : "?" }) : sampleText
        guard let data = text.data(using: encoding, allowLossyConversion: true) else {
            throw .badRequest("cannot encode the sample text as \(name)")
        }
        return Reply.bytes([UInt8](data), contentType: "text/plain; charset=\(name)")
    }
}
