import APITestTestSupport
import Foundation
import Testing

/// `--report-har` end to end against the demo API: the archive is valid for the HAR 1.2 schema
/// (Fixtures/har-schema, ISC) and read by haralyzer (PyPI), a secret in a header, the query, a JSON body, a cookie
/// and Basic credentials appears in it in no encoding, and `apitest import har` of it sends the same requests again.
@Suite final class HARReportRunTests {
    static let schemaFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/har-schema")

    /// The folder of this test's files, removed when the test ends.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }

    func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    func entries(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])
    }

    /// Checks `path` against the HAR schema (Python's jsonschema, formats checked) and reads it with haralyzer.
    func validate(_ path: String) async throws {
        let python = try TestBinaries.tool("python3")
        let schema = try await runProcess(python, ["-c", Self.schemaCheck, path, Self.schemaFolder.path])
        #expect(schema.exitCode == 0 && schema.stdout.contains("valid"), "\(schema.stdout)\(schema.stderr)")
        let haralyzer = try await runProcess(python, ["-c", Self.haralyzerCheck, path])
        #expect(
            haralyzer.exitCode == 0 && haralyzer.stdout.contains("read"),
            "haralyzer (scripts/install-deps.sh installs it): \(haralyzer.stdout)\(haralyzer.stderr)")
    }

    static let schemaCheck = """
        import json, os, sys, jsonschema
        folder = sys.argv[2]
        store = {}
        for name in os.listdir(folder):
            if name.endswith(".json"):
                schema = json.load(open(os.path.join(folder, name)))
                store[name] = schema
                store[name + "#"] = schema
        resolver = jsonschema.RefResolver(base_uri="", referrer=store["har.json"], store=store)
        jsonschema.Draft6Validator(
            store["har.json"], resolver=resolver, format_checker=jsonschema.Draft6Validator.FORMAT_CHECKER
        ).validate(json.load(open(sys.argv[1])))
        print("valid")
        """

    /// haralyzer reads every page and entry, with their timings.
    static let haralyzerCheck = """
        import json, sys
        from haralyzer import HarParser
        parser = HarParser(json.load(open(sys.argv[1])))
        count = 0
        for page in parser.pages:
            for entry in page.entries:
                assert entry.request.method and entry.url and entry.timings is not None
                count += 1
        assert count == len(parser.har_data["entries"]), (count, len(parser.har_data["entries"]))
        print("read", count)
        """

    // MARK: - Secrets

    @Test func aSecretInAHeaderTheQueryAJSONBodyACookieAndCredentialsIsInNoEncoding() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let secret = "Zq9-HarSecret-77x"
        let suite = file("secrets.yaml")
        try """
        name: Secrets
        baseURL: \(demo.baseURL)
        tests:
          - name: everywhere
            request:
              method: POST
              url: /echo/items?token={{ env.HAR_SECRET }}&q=a
              headers: {X-Api-Key: "{{ env.HAR_SECRET }}", Cookie: "session={{ env.HAR_SECRET }}; theme=dark"}
              json: {name: carol, key: "{{ env.HAR_SECRET }}"}
          - name: basic
            request:
              url: /headers
              basicAuth: {username: ann, password: "{{ env.HAR_SECRET }}"}
          - name: cookie set by the server
            request: {url: "/cookies/set?sid={{ env.HAR_SECRET }}"}
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let result = try await runAPITest(
            ["run", suite, "--report-har", file("run.har")], environment: ["HAR_SECRET": secret])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await validate(file("run.har"))
        let text = try String(contentsOfFile: file("run.har"), encoding: .utf8)
        let forms = [
            secret, Data(secret.utf8).base64EncodedString(), Data("ann:\(secret)".utf8).base64EncodedString(),
            secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret, secret.lowercased(),
        ]
        for form in forms { #expect(!text.contains(form), "\(form) in the HAR") }
        // Every base64 content decoded holds it in no form either.
        let entries = try entries(file("run.har"))
        #expect(entries.count == 3)
        for entry in entries {
            let content = (entry["response"] as? [String: Any])?["content"] as? [String: Any]
            if content?["encoding"] as? String == "base64",
                let data = Data(base64Encoded: content?["text"] as? String ?? "")
            {
                #expect(!String(decoding: data, as: UTF8.self).contains(secret))
            }
        }
        // The server echoed the secret back: masked there too, and the request's fields are masked in place.
        let everywhere = try #require(
            entries.first { ($0["_apitest"] as? [String: Any])?["test"] as? String == "everywhere" })
        let request = try #require(everywhere["request"] as? [String: Any])
        let query = try #require(request["queryString"] as? [[String: String]])
        #expect(query.first?["name"] == "token" && query.first?["value"] != secret)
        let headers = try #require(request["headers"] as? [[String: String]])
        #expect(headers.contains { $0["name"] == "Host" }, "the headers as sent, libcurl's own included")
    }

    // MARK: - Attempts

    @Test func eachAttemptOfAStepThatRetriesIsAnEntryOfItsOwn() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let suite = file("retry.yaml")
        // A job that is pending on its first read and done on the next: the polling step sends twice.
        try """
        name: Retry
        baseURL: \(demo.baseURL)/api/
        tests:
          - name: poll
            steps:
              - request: {method: POST, url: "jobs?polls=1"}
                expect: {status: 202}
                capture: {job: {jsonpath: $.id}}
              - name: wait
                request: {url: "jobs/{{ job }}"}
                retry: {attempts: 5, interval: 10ms, until: {json: {$.state: done}}}
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let result = try await runAPITest(["run", suite, "--report-har", file("retry.har")])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let origins = try entries(file("retry.har")).compactMap { $0["_apitest"] as? [String: Any] }
        let waits = origins.filter { $0["step"] as? String == "wait" }
        #expect(waits.map { $0["attempt"] as? Int } == [1, 2], "\(origins)")
        let states = try entries(file("retry.har")).compactMap { entry -> String? in
            guard (entry["_apitest"] as? [String: Any])?["step"] as? String == "wait" else { return nil }
            return ((entry["response"] as? [String: Any])?["content"] as? [String: Any])?["text"] as? String
        }
        #expect(states.count == 2 && states[0].contains("pending") && states[1].contains("done"), "\(states)")
    }

    // MARK: - Round trip

    @Test func importHarOfTheArchiveSendsTheSameRequests() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        try "a text file\n".write(toFile: file("note.txt"), atomically: true, encoding: .utf8)
        let suite = file("trip.yaml")
        try """
        name: Trip
        baseURL: \(demo.baseURL)
        tests:
          - name: get
            request: {url: "/echo/items?q=a%20b&n=1", headers: {X-Trace: t-1, Accept: application/json}}
          - name: post json
            request: {method: POST, url: /echo, json: {name: carol, tags: [a, b]}}
          - name: post form
            request: {method: POST, url: /echo, form: {name: carol, city: Saint Malo}}
          - name: upload
            request:
              method: POST
              url: /echo
              multipart:
                - {name: caption, value: at the beach}
                - {name: file, file: note.txt}
          - name: redirect
            request: {url: /redirect/2}
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let first = try await runAPITest(["run", suite, "--jobs", "1", "--report-har", file("first.har")])
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        try await validate(file("first.har"))
        // Each hop of a redirect is an entry of its own, as a browser records it: two redirects, then the answer.
        let hops = try entries(file("first.har")).filter {
            ($0["_apitest"] as? [String: Any])?["test"] as? String == "redirect"
        }
        #expect(
            hops.map { ($0["_apitest"] as? [String: Any])?["kind"] as? String } == ["redirect", "redirect", "request"])
        let statuses = hops.map { ($0["response"] as? [String: Any])?["status"] as? Int ?? 0 }
        #expect(
            statuses.count == 3 && statuses.prefix(2).allSatisfy { (300...399).contains($0) } && statuses.last == 200,
            "\(statuses)")
        let targets = hops.map { ($0["response"] as? [String: Any])?["redirectURL"] as? String ?? "" }
        #expect(targets.prefix(2).allSatisfy { !$0.isEmpty } && targets.last == "", "\(targets)")
        // Each hop's request is the URL the hop before it named.
        let urls = hops.map { ($0["request"] as? [String: Any])?["url"] as? String ?? "" }
        #expect(urls.count == 3 && urls[0].hasSuffix("/redirect/2"), "\(urls)")
        for index in 1..<min(urls.count, 3) {
            #expect(
                urls[index].hasSuffix(targets[index - 1]) || urls[index] == targets[index - 1], "\(urls) \(targets)")
        }

        let imported = try await runProcess(
            try TestBinaries.url("apitest"), ["import", "har", "first.har", "-o", "imported.yaml"],
            environment: ["NO_COLOR": "1"], currentDirectory: scratch)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let second = try await runAPITest([
            "run", file("imported.yaml"), "--jobs", "1", "--var", "origin=\(demo.baseURL)", "--report-har",
            file("second.har"),
        ])
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
        let before = try entries(file("first.har")).map(Self.request)
        let after = try entries(file("second.har")).map(Self.request)
        #expect(before.count == after.count && !before.isEmpty)
        for (recorded, replayed) in zip(before, after) {
            #expect(recorded == replayed)
        }
    }

    /// What a request is, for the round trip: method, URL, the headers apitest does not add itself, and the body
    /// (a multipart body's parts; the boundary is new on every run).
    static func request(_ entry: [String: Any]) -> [String] {
        let request = entry["request"] as? [String: Any] ?? [:]
        var facts = ["\(request["method"] ?? "") \(request["url"] ?? "")"]
        let added: Set<String> = ["host", "content-length", "accept-encoding", "user-agent", "expect"]
        for header in request["headers"] as? [[String: String]] ?? [] {
            let name = (header["name"] ?? "").lowercased()
            guard !added.contains(name) else { continue }
            let value = header["value"] ?? ""
            facts.append("\(name): \(value.hasPrefix("multipart/form-data") ? "multipart/form-data" : value)")
        }
        let postData = request["postData"] as? [String: Any] ?? [:]
        if let text = postData["text"] as? String { facts.append("text: \(text)") }
        for param in postData["params"] as? [[String: String]] ?? [] {
            facts.append("param: \(param.sorted { $0.key < $1.key })")
        }
        return facts
    }
}
