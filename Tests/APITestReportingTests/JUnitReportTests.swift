import APITestReporting
import APITestResults
import APITestSupport
import APITestTestSupport
import Foundation
import FoundationXML
import Testing

@Suite("JUnit XML report")
struct JUnitReportTests {
    private func document(_ record: RunRecord) throws -> XMLDocument {
        let xml = JUnitReportFormat().render(record)
        return try XMLDocument(data: Data(xml.utf8), options: [])
    }

    private func attributes(_ element: XMLElement) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in element.attributes ?? [] {
            if let name = attribute.name { result[name] = attribute.stringValue ?? "" }
        }
        return result
    }

    private func element(_ document: XMLDocument, _ xpath: String) throws -> XMLElement {
        let nodes = try document.nodes(forXPath: xpath)
        return try #require(nodes.first as? XMLElement, "no element at \(xpath)")
    }

    @Test("testsuites and testsuite carry the totals, the timestamp, the host and the file")
    func suiteAttributes() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let root = try element(document, "/testsuites")
        #expect(
            attributes(root) == ["name": "apitest", "tests": "6", "failures": "1", "errors": "2", "time": "0.950"])
        let suite = try element(document, "/testsuites/testsuite")
        #expect(
            attributes(suite) == [
                "name": "Users API", "tests": "6", "failures": "1", "errors": "2", "skipped": "2", "time": "0.932",
                "timestamp": "2025-05-01T12:00:00Z", "hostname": "ci-7", "file": "suites/users.yaml",
            ])
    }

    @Test("a testcase per planned test, in file order, named with the suite as classname")
    func testcases() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(
            cases.map { attributes($0)["name"] ?? "" } == [
                "list users", "create a user", "connection refused", "export", "slow report", "never started",
            ])
        #expect(cases.allSatisfy { attributes($0)["classname"] == "Users API" })
        #expect(cases.map { attributes($0)["time"] ?? "" } == ["0.012", "0.008", "0.012", "0.000", "0.900", "0.000"])
        #expect(try document.nodes(forXPath: "//testcase[@name='list users']/*").map(\.name) == ["system-out"])
    }

    @Test("a failed test: one failure with every assertion's location, expected, actual and the request line")
    func failure() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let failure = try element(document, "//testcase[@name='create a user']/failure")
        #expect(
            attributes(failure) == [
                "message": "expected status 201, got 400 (and 1 more)", "type": "assertion",
            ])
        #expect(
            failure.stringValue == """
                suites/users.yaml:23:17: expected status 201, got 400
                  expected: 201
                  actual:   400
                  request:  POST http://127.0.0.1:8080/api/users → 400
                suites/users.yaml:26:9: $.name: expected "carol", got nothing
                  expected: "carol"
                  actual:   nothing
                  request:  POST http://127.0.0.1:8080/api/users → 400

                """)
    }

    @Test("an errored test is an error of its kind; a cancelled one an error of type cancelled")
    func errors() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let error = try element(document, "//testcase[@name='connection refused']/error")
        #expect(
            attributes(error) == [
                "message": "connection refused: Couldn't connect to server", "type": "connectionRefused",
            ])
        #expect(error.stringValue?.hasPrefix("suites/users.yaml:32:14: connection refused") == true)
        #expect(error.stringValue?.contains("request:  GET http://127.0.0.1:8080/api/down (no response)") == true)
        let cancelled = try element(document, "//testcase[@name='slow report']/error")
        #expect(attributes(cancelled) == ["message": "interrupted", "type": "cancelled"])
        #expect(cancelled.stringValue?.contains("interrupted (Ctrl-C)") == true)
    }

    @Test("a test with a failure and a later step's error reports both")
    func failureAndError() throws {
        let document = try document(ReportFixtures.mixedRecord)
        let failure = try element(document, "//testcase[@name='teardown']/failure")
        let text = try #require(failure.stringValue)
        #expect(text.contains("suites/users.yaml:62:17: expected status 204, got 500"))
        #expect(text.contains("suites/users.yaml:63:40: undefined variable 'token' (the suite's setup did not finish)"))
    }

    @Test("skipped tests and tests that never started are skipped, with their reason")
    func skipped() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let skipped = try element(document, "//testcase[@name='export']/skipped")
        #expect(attributes(skipped) == ["message": "not implemented yet"])
        let notRun = try element(document, "//testcase[@name='never started']/skipped")
        #expect(attributes(notRun) == ["message": "not run: the run was interrupted"])
    }

    @Test("system-out lists the test's location and each step's request, status and timings")
    func systemOut() throws {
        let document = try document(ReportFixtures.interruptedRecord)
        let output = try element(document, "//testcase[@name='list users']/system-out")
        #expect(
            output.stringValue == """
                test at suites/users.yaml:10:5
                step 1 at suites/users.yaml:11:7: GET http://127.0.0.1:8080/api/users → 200 HTTP/1.1
                  total 12 ms (DNS 100 µs, connect 400 µs, first byte 11 ms)
                  captured: count

                """)
    }

    @Test("text XML cannot carry is replaced visibly; markup, ]]> and quotes survive as text")
    func weirdText() throws {
        let xml = JUnitReportFormat().render(ReportFixtures.weirdRecord)
        #expect(!xml.unicodeScalars.contains { !ReportText.isXMLCharacter($0) })
        #expect(!xml.contains("]]>"))
        #expect(!xml.contains("<script>"))
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        let testcase = try element(document, "//testcase")
        let name = attributes(testcase)["name"] ?? ""
        #expect(name.hasPrefix("name bell\\u{7} esc\\u{1B}[31m nul\\u{0} ]]> a\u{FFFD}\u{FFFD}b "))
        #expect(
            name.contains("<script>alert('x')</script> \"quoted\" & #hash\nsecond line\r\tTab \\u{FFFF} \\u{85}end"))
        let failure = try element(document, "//testcase/failure")
        #expect(failure.stringValue?.contains("actual:   actual bell\\u{7}") == true)
        #expect(failure.stringValue?.contains("second line\r") == true)
        #expect(attributes(try element(document, "/testsuites/testsuite"))["hostname"] == "host<&>")
    }

    @Test("the schema accepts the report, weird text included (xmllint, junit-10.xsd)")
    func validatesAgainstSchema() throws {
        let schema = JUnitSchemas.surefire.path
        try #require(FileManager.default.fileExists(atPath: schema), "missing \(schema)")
        let xmllint = try #require(ReportConsumers.tool("xmllint"), "xmllint is missing: run scripts/install-deps.sh")
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let extended = try JUnitSchemas.withLocations(in: directory)
        for (name, record) in [
            ("interrupted", ReportFixtures.interruptedRecord), ("weird", ReportFixtures.weirdRecord),
        ] {
            // Without locations the report is valid for junit-10.xsd itself; with them, for junit-10.xsd with
            // `file` and `line` on `testcase` and nothing else added (and not for junit-10.xsd itself).
            let strict = directory.appendingPathComponent("\(name)-strict.xml")
            try Data(JUnitReportFormat(locations: false).render(record).utf8).write(to: strict)
            let result = try ReportConsumers.run(xmllint, ["--noout", "--schema", schema, strict.path])
            #expect(result.status == 0, "\(name): \(result.output)")
            let located = directory.appendingPathComponent("\(name).xml")
            try Data(JUnitReportFormat().render(record).utf8).write(to: located)
            let extendedResult = try ReportConsumers.run(xmllint, ["--noout", "--schema", extended, located.path])
            #expect(extendedResult.status == 0, "\(name): \(extendedResult.output)")
            let plainResult = try ReportConsumers.run(xmllint, ["--noout", "--schema", schema, located.path])
            #expect(plainResult.output.contains("attribute 'file': The attribute 'file' is not allowed"))
        }
    }

    @Test("each testcase has the file and line of its test, escaped; none without locations")
    func testcaseLocations() throws {
        let document = try XMLDocument(data: Data(JUnitReportFormat().render(ReportFixtures.weirdRecord).utf8))
        let testcase = attributes(try element(document, "//testcase"))
        let result = try #require(ReportFixtures.weirdRecord.suites.first?.results.first)
        #expect(testcase["file"] == result.location.file)
        #expect(testcase["line"] == "\(result.location.line)")
        #expect(result.location.line > 0 && !result.location.file.isEmpty)
        let strict = JUnitReportFormat(locations: false).render(ReportFixtures.weirdRecord)
        let strictCase = attributes(try element(try XMLDocument(data: Data(strict.utf8)), "//testcase"))
        #expect(strictCase["file"] == nil && strictCase["line"] == nil)
    }
}
