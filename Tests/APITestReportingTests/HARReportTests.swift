import APITestReporting
import APITestResults
import APITestSupport
import Foundation
import Testing

/// The HAR report (`--report-har`): HAR 1.2 with an entry per exchange (every attempt, token requests), libcurl's
/// times as HAR's phases, bodies as text or base64, and the sealing point's masking on every text; valid for the HAR
/// schema (ahmadnassri/har-schema, kept under Tests/IntegrationTests/Fixtures/har-schema).
@Suite("HAR report")
struct HARReportTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schemaFolder = repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/har-schema")

    /// Masks `s3cr3t` wherever it appears as written (enough to see that sealing masks each text; the masker's
    /// encodings are `SecretMasker`'s own tests', and the run's end-to-end test's).
    struct Sealer: SecretSealing {
        func mask(_ text: String) -> String { text.replacingOccurrences(of: "s3cr3t", with: "•••••") }
        func maskHeader(name: String, value: String) -> String { mask(value) }
    }

    static let start = Date(timeIntervalSince1970: 1_746_100_800.25)

    /// A draft of `method url` sent at `offset` seconds after ``start``, answered `status` with `body`.
    static func draft(
        _ method: String, _ url: String, offset: Double, status: Int? = 200, body: ExchangeDraft.Body? = nil,
        size: Int = 0
    ) -> ExchangeDraft {
        var draft = ExchangeDraft(
            method: method, url: url, requestHeaders: [.init(name: "Accept", value: "application/json")],
            bodyPreviewLimit: 32)
        draft.startedAt = start.addingTimeInterval(offset)
        draft.statusCode = status
        if let status {
            draft.httpVersion = "HTTP/1.1"
            draft.reasonPhrase = status == 200 ? "OK" : "Found"
            draft.responseHeaders = [.init(name: "Content-Type", value: "application/json")]
            draft.responseBody = body
            draft.responseBodySize = size
            draft.remoteAddress = "127.0.0.1:8080"
            draft.localPort = 40000
            draft.timings = Exchange.Timings(
                nameLookup: .milliseconds(1), connect: .milliseconds(3), tlsHandshake: .milliseconds(7),
                firstByte: .milliseconds(20), total: .milliseconds(25), preTransfer: .milliseconds(8))
        }
        return draft
    }

    static func document(_ record: RunRecord) throws -> [String: Any] {
        let text = HARReportFormat(toolVersion: "9.9.9").render(record)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A body of 44 bytes, longer than the preview limit (32).
    static let pending = "{\"state\":\"pending\",\"detail\":\"still working\"}"

    /// A record of one suite: a step that retried (two attempts), a POST with a secret everywhere, a binary body,
    /// a transfer that failed.
    static var record: RunRecord {
        let location = SourceLocation(file: "suites/a.yaml", line: 3, column: 5)
        // A step with a retry: its first attempt sealed apart, the last one the step's exchange.
        var retried = StepDraft(
            index: 0, location: location,
            exchange: draft(
                "GET", "http://127.0.0.1:8080/jobs/1?token=s3cr3t&q=a+b", offset: 2,
                body: .text("{\"state\":\"done\"}", readBytes: 16, totalSize: 16), size: 16))
        retried.attempts = 2
        retried.earlierExchanges = [
            draft(
                "GET", "http://127.0.0.1:8080/jobs/1?token=s3cr3t&q=a+b", offset: 1,
                body: .text(pending, readBytes: 44, totalSize: 44), size: 44
            ).sealed(by: Sealer())
        ]
        var post = draft(
            "POST", "http://127.0.0.1:8080/items", offset: 3, body: .note("<40 bytes of binary data>"), size: 40)
        post.requestHeaders += [
            .init(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            .init(name: "Cookie", value: "session=s3cr3t; theme=dark"),
        ]
        post.requestBody = .text("name=carol&key=s3cr3t", readBytes: 21, totalSize: 21)
        post.requestBodySize = 21
        post.responseHeaders.append(.init(name: "Set-Cookie", value: "id=s3cr3t; Path=/; HttpOnly; Secure"))
        post.responseBinary = Data([0xFF, 0x00] + Array("xs3cr3ty".utf8) + [0xFE])
        var multipart = draft("POST", "http://127.0.0.1:8080/upload", offset: 4)
        multipart.requestBody = .note("name=\"file\"; filename=\"a.png\"")
        multipart.requestBodySize = 120
        multipart.requestParts = [
            .init(name: "file", fileName: "a.png", contentType: "image/png"),
            .init(name: "note", value: "s3cr3t note"),
        ]
        let failed = draft("GET", "http://127.0.0.1:9/down", offset: 5, status: nil)
        var failedStep = StepDraft(index: 0, location: location, exchange: failed)
        failedStep.error = TestError(
            kind: .transfer(.connectionRefused), message: "connection refused: Couldn't connect to server",
            location: location)
        let steps = [
            retried, StepDraft(index: 1, location: location, exchange: post),
            StepDraft(index: 2, location: location, exchange: multipart),
        ].map { $0.sealed(by: Sealer()) }
        let results = [
            TestResult(
                suiteName: "Jobs", suiteFile: "suites/a.yaml", name: "job", location: location, status: .passed,
                duration: .milliseconds(5), steps: steps),
            TestResult(
                suiteName: "Jobs", suiteFile: "suites/a.yaml", name: "down", location: location, status: .errored,
                duration: .milliseconds(5), steps: [failedStep.sealed(by: Sealer())]),
        ]
        return RunRecord(plan: nil, results: results, summary: nil, startedAt: start, hostname: "host")
    }

    @Test("creator, a page per suite, an entry per exchange in the order sent, each attempt with _apitest")
    func entriesAndPages() throws {
        let log = try #require(try Self.document(Self.record)["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "apitest" && creator["version"] as? String == "9.9.9")
        let pages = try #require(log["pages"] as? [[String: Any]])
        #expect(pages.count == 1 && pages[0]["id"] as? String == "page_1" && pages[0]["title"] as? String == "Jobs")
        #expect(pages[0]["startedDateTime"] as? String == "2025-05-01T12:00:01.250Z")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 5)
        let dates = entries.compactMap { $0["startedDateTime"] as? String }
        #expect(
            dates == [
                "2025-05-01T12:00:01.250Z", "2025-05-01T12:00:02.250Z", "2025-05-01T12:00:03.250Z",
                "2025-05-01T12:00:04.250Z", "2025-05-01T12:00:05.250Z",
            ])
        let origins = entries.compactMap { $0["_apitest"] as? [String: Any] }
        #expect(origins.map { $0["attempt"] as? Int } == [1, 2, 1, 1, 1])
        #expect(origins.map { $0["test"] as? String } == ["job", "job", "job", "job", "down"])
        #expect(origins[0]["suite"] as? String == "Jobs" && origins[0]["file"] as? String == "suites/a.yaml")
        #expect(origins[1]["step"] as? String == "step 1" && origins[2]["stepIndex"] as? Int == 1)
        #expect(entries.allSatisfy { $0["pageref"] as? String == "page_1" })
    }

    @Test("libcurl's times as HAR phases; -1 for what did not happen; time is their sum")
    func timings() throws {
        let entries = try #require(
            (try Self.document(Self.record)["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let timings = try #require(entries[1]["timings"] as? [String: Double])
        #expect(timings["dns"] == 1 && timings["connect"] == 6 && timings["ssl"] == 4 && timings["blocked"] == 1)
        #expect(timings["send"] == 0 && timings["wait"] == 12 && timings["receive"] == 5)
        #expect(entries[1]["time"] as? Double == 25)
        #expect(
            entries[1]["serverIPAddress"] as? String == "127.0.0.1" && entries[1]["connection"] as? String == "40000")
        let failed = try #require(entries[4]["response"] as? [String: Any])
        #expect(failed["status"] as? Int == 0)
        #expect(entries[4]["_error"] as? String == "connection refused: Couldn't connect to server")
        let none = try #require(entries[4]["timings"] as? [String: Double])
        #expect(none["dns"] == -1 && none["connect"] == -1 && none["ssl"] == -1)
    }

    @Test("request: query, cookies, form params and multipart parts; response: text cut with a comment, base64")
    func bodies() throws {
        let entries = try #require(
            (try Self.document(Self.record)["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let get = try #require(entries[0]["request"] as? [String: Any])
        let query = try #require(get["queryString"] as? [[String: String]])
        #expect(query == [["name": "token", "value": "•••••"], ["name": "q", "value": "a b"]])
        let cut = try #require((entries[0]["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(cut["text"] as? String == String(Self.pending.prefix(32)))
        #expect((cut["comment"] as? String)?.contains("44 bytes") == true && cut["size"] as? Int == 44)

        let post = try #require(entries[2]["request"] as? [String: Any])
        #expect(
            post["cookies"] as? [[String: String]] == [
                ["name": "session", "value": "•••••"], ["name": "theme", "value": "dark"],
            ])
        let postData = try #require(post["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "application/x-www-form-urlencoded")
        #expect(postData["text"] as? String == "name=carol&key=•••••")
        #expect(
            postData["params"] as? [[String: String]] == [
                ["name": "name", "value": "carol"], ["name": "key", "value": "•••••"],
            ])
        let response = try #require(entries[2]["response"] as? [String: Any])
        #expect(response["statusText"] as? String == "OK")
        let cookie = try #require((response["cookies"] as? [[String: Any]])?.first)
        #expect(
            cookie["value"] as? String == "•••••" && cookie["httpOnly"] as? Bool == true
                && cookie["path"] as? String == "/")
        let content = try #require(response["content"] as? [String: Any])
        #expect(content["encoding"] as? String == "base64")
        let bytes = try #require(Data(base64Encoded: content["text"] as? String ?? ""))
        #expect(Array(bytes.prefix(3)) == [0xFF, 0x00, UInt8(ascii: "x")])
        #expect(!String(decoding: bytes, as: UTF8.self).contains("s3cr3t"))
        #expect((content["comment"] as? String)?.contains("40 bytes") == true)

        let upload = try #require((entries[3]["request"] as? [String: Any])?["postData"] as? [String: Any])
        let params = try #require(upload["params"] as? [[String: String]])
        #expect(
            params == [
                ["name": "file", "fileName": "a.png", "contentType": "image/png"],
                ["name": "note", "value": "••••• note"],
            ])
    }

    @Test("no text of the archive holds the secret, in any field")
    func masked() throws {
        let text = HARReportFormat(toolVersion: "1").render(Self.record)
        #expect(!text.contains("s3cr3t"))
        #expect(!text.contains(Data("s3cr3t".utf8).base64EncodedString().dropLast(2)))
    }

    @Test("valid for the HAR 1.2 schema (ahmadnassri/har-schema)")
    func validForTheSchema() throws {
        try Self.validate(HARReportFormat(toolVersion: "1").render(Self.record))
        // An empty run too.
        let empty = RunRecord(plan: nil, results: [], summary: nil, startedAt: Self.start, hostname: "host")
        try Self.validate(HARReportFormat(toolVersion: "1").render(empty))
    }

    /// Validates `text` against har.json with Python's jsonschema (draft 6, formats checked: the schema's
    /// `serverIPAddress` is one of `ipv4` and `ipv6`).
    static func validate(_ text: String) throws {
        let python = try #require(ReportConsumers.tool("python3"), "python3 is missing: run scripts/install-deps.sh")
        let directory = try ReportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("run.har")
        try Data(text.utf8).write(to: file)
        let result = try ReportConsumers.run(python, ["-c", harValidation, file.path, schemaFolder.path])
        #expect(result.status == 0 && result.output.contains("valid"), "\(result.output)")
    }

    /// The Python script that validates the file `argv[1]` against the schemas in the folder `argv[2]`.
    static let harValidation = """
        import json, os, sys, jsonschema
        folder = sys.argv[2]
        store = {}
        for name in os.listdir(folder):
            if name.endswith(".json"):
                schema = json.load(open(os.path.join(folder, name)))
                jsonschema.Draft6Validator.check_schema(schema)
                store[name] = schema
                store[name + "#"] = schema
        resolver = jsonschema.RefResolver(base_uri="", referrer=store["har.json"], store=store)
        validator = jsonschema.Draft6Validator(
            store["har.json"], resolver=resolver, format_checker=jsonschema.Draft6Validator.FORMAT_CHECKER)
        validator.validate(json.load(open(sys.argv[1])))
        print("valid")
        """
}
