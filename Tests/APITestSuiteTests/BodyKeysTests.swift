import APITestSupport
import Foundation
import Testing

@testable import APITestSuite

@Suite("multipart, plist and xml bodies")
struct BodyKeysTests {
    @Test func multipartPartsOfEveryKind() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("", to: "empty.bin", in: directory)
        try writeFile("x", to: "photos/a b.png", in: directory)
        let suite = try loadSuite(
            """
            tests:
              - name: upload
                request:
                  method: POST
                  url: http://127.0.0.1:9/up
                  multipart:
                    - {name: caption, value: "at the beach"}
                    - {name: file, file: "photos/a b.png", filename: beach.png, contentType: image/png}
                    - {name: nothing, file: empty.bin}
                    - name: meta
                      data: '{"a": 1}'
                      filename: meta.json
                      headers: {X-Part: "3"}
            """, file: directory + "/suite.yaml")
        guard case .multipart(let parts) = suite.tests[0].steps[0].request.body else {
            Issue.record("no multipart body")
            return
        }
        #expect(parts.count == 4)
        #expect(parts[0].name.source == "caption")
        #expect(parts[0].content == .value(Template(literal: "at the beach", location: parts[0].content.location)))
        #expect(parts[1].content == .file(absolutePath: directory + "/photos/a b.png"))
        #expect(parts[1].filename?.source == "beach.png")
        #expect(parts[1].contentType?.source == "image/png")
        #expect(parts[2].content == .file(absolutePath: directory + "/empty.bin"), "an empty file is a valid part")
        #expect(parts[3].headers.map(\.name) == ["X-Part"])
        #expect(parts[3].location.line == 10)
    }

    @Test func multipartErrorsAreLocated() {
        let found = errors(
            """
            tests:
              - name: upload
                request:
                  url: http://127.0.0.1:9/up
                  multipart:
                    - {name: a, file: missing.png}
                    - {name: b, value: x, data: y}
                    - {value: no name}
                    - {name: c, value: v, filename: f.txt}
              - name: empty list
                request: {url: "http://127.0.0.1:9/", multipart: []}
            """)
        #expect(found.contains { $0.hasPrefix("suites/test.yaml:6:27: error: file 'missing.png' does not exist") })
        #expect(
            found.contains(
                "suites/test.yaml:7:31: error: a multipart part takes one of 'value', 'file' or 'data'; found 'value' and 'data'"
            ))
        #expect(found.contains("suites/test.yaml:8:11: error: a multipart part needs a 'name'"))
        #expect(found.contains("suites/test.yaml:9:31: error: 'filename' applies to 'file' and 'data' parts"))
        #expect(found.contains("suites/test.yaml:11:54: error: 'multipart' needs at least one part"))
        #expect(found.count == 5)
    }

    @Test func plistBodiesAndFormats() throws {
        let suite = try loadSuite(
            """
            tests:
              - name: xml plist
                request: {url: "http://127.0.0.1:9/", plist: {a: 1, b: [true]}}
              - name: binary plist
                request: {url: "http://127.0.0.1:9/", plist: [1], plistFormat: binary}
            """)
        guard case .plist(_, let first) = suite.tests[0].steps[0].request.body,
            case .plist(_, let second) = suite.tests[1].steps[0].request.body
        else {
            Issue.record("no plist bodies")
            return
        }
        #expect(first == .xml)
        #expect(second == .binary)
        let found = errors(
            """
            tests:
              - name: bad
                request: {url: "http://127.0.0.1:9/", plist: {a: [1, ~]}, plistFormat: binray}
              - name: stray
                request: {url: "http://127.0.0.1:9/", json: {}, plistFormat: xml}
            """)
        #expect(found.contains("suites/test.yaml:3:50: error: a property list cannot hold null (at $.a[1])"))
        #expect(
            found.contains(
                "suites/test.yaml:3:76: error: unknown plistFormat 'binray'; use xml or binary; did you mean 'binary'?")
        )
        #expect(found.contains("suites/test.yaml:5:53: error: 'plistFormat' applies to a 'plist' body"))
    }

    @Test func xmlTextOrFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile("<a/>", to: "doc.xml", in: directory)
        let suite = try loadSuite(
            """
            tests:
              - name: text
                request: {url: "http://127.0.0.1:9/", xml: "<a>{{ env.X }}</a>"}
              - name: file
                request: {url: "http://127.0.0.1:9/", xml: {file: doc.xml}}
            """, file: directory + "/suite.yaml", environment: ["X": "1"])
        guard case .xml(let template) = suite.tests[0].steps[0].request.body else {
            Issue.record("no xml text body")
            return
        }
        #expect(template.referencedNames == ["env.X"])
        #expect(suite.tests[1].steps[0].request.body == .xmlFile(absolutePath: directory + "/doc.xml"))
        #expect(errors("tests:\n  - name: x\n    request: {url: 'http://h/', xml: {path: a.xml}}\n").count == 2)
    }

    @Test func bodyTemplatesAreCheckedForUndefinedNames() {
        let found = errors(
            """
            tests:
              - name: x
                request:
                  url: http://127.0.0.1:9/
                  multipart:
                    - {name: "{{ field }}", value: "{{ nope }}"}
            """)
        #expect(found.contains { $0.contains("undefined variable 'field'") })
        #expect(found.contains { $0.contains("undefined variable 'nope'") })
    }
}

extension MultipartPartSpec.Content {
    /// The location of the content's template, for building expected values.
    var location: APITestSupport.SourceLocation {
        switch self {
        case .value(let template), .data(let template): return template.location
        case .file: return APITestSupport.SourceLocation(file: "", line: 0, column: 0)
        }
    }
}

@Suite("skip")
struct SkipKeyTests {
    @Test func skipTakesAReasonOrABoolean() throws {
        let suite = try loadSuite(
            """
            tests:
              - {name: a, skip: "flaky upstream", request: {url: "http://h/"}}
              - {name: b, skip: true, request: {url: "http://h/"}}
              - {name: c, skip: false, request: {url: "http://h/"}}
              - {name: d, request: {url: "http://h/"}}
            """)
        #expect(suite.tests.map(\.skip) == ["flaky upstream", "skipped", nil, nil])
        #expect(errors("tests:\n  - {name: a, skip: [x], request: {url: 'http://h/'}}\n").count == 1)
        #expect(
            errors("tests:\n  - {name: a, skp: x, request: {url: 'http://h/'}}\n").first?.contains(
                "did you mean 'skip'?") == true)
    }
}
