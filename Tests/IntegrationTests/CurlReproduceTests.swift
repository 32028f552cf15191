import Foundation
import Testing

/// The curl commands of `run --curl` and `export curl`, run through `bash` and the real curl against the demo's
/// `/echo`, which describes each request as received: what curl sends is what apitest sent (method, path, query,
/// headers in order, body bytes by size and SHA-256, multipart part by part), a secret travelling as a
/// `"${NAME}"` reference, and values captured from a server (quotes, `$(...)`, backticks, tabs, newlines) passed as
/// data. Every command runs in dash (Debian's `/bin/sh`, POSIX quoting only) and in bash.
@Suite struct CurlReproduceTests {
    static let secret = "Sekr3t-Value_9z"

    /// Text the server hands back, captured and sent again: nothing of it may run in the shell. Any of it that ran
    /// would create `MARKER` in the test's own folder (the shells run there), which the tests check is never made.
    static let hostile =
        "it's\t\"q\" $(touch MARKER) `touch MARKER` ; touch MARKER # \\ end\nline 2\ttab € \u{202E}rtl\n"

    /// The same without line breaks, for a header: a tab and a quote, which bash's `$'...'` quoting (the old one)
    /// turned into a command that dash ran.
    static let oneLine = "it's\t\"q\" $(touch MARKER) `touch MARKER` ; touch MARKER # \\ end € \u{202E}rtl"

    /// The shells every command and file is run with.
    static let shells = ["/bin/dash", "/bin/bash"]

    static func suite(port: Int, folder: URL) throws -> URL {
        try Data("file body\n".utf8).write(to: folder.appendingPathComponent("body.txt"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01, 0xFF]).write(to: folder.appendingPathComponent("a.png"))
        let yaml = """
            name: Echo
            baseURL: http://127.0.0.1:\(port)/
            variables:
              password: "{{ env.APITEST_CURL_SECRET }}"
            defaults:
              headers: {X-Default: "d'1"}
            tests:
              - name: json put
                request:
                  method: PUT
                  url: "echo/a b/ü"
                  query: {filter: {role: admin}, ids: [1, 2], q: "$(id) & 'x'"}
                  headers: {X-Token: "Bearer {{ env.APITEST_CURL_SECRET }}", X-Empty: "", X-Quote: "it's\\t\\"q\\" `x` $(touch MARKER)"}
                  json: {password: "{{ password }}", n: 1.5, s: "a\\nb", u: "ü€"}
              - name: form and basic auth
                request:
                  method: POST
                  url: echo/form
                  basicAuth: {username: alice, password: "{{ password }}"}
                  form: {a: "x y", secret: "{{ password }}", list: [1, 2]}
              - name: raw text with control characters
                request:
                  method: PATCH
                  url: echo/raw
                  body: "line 1\\r\\nline 2\\ttab \\u0001 ü"
                  contentType: text/plain; charset=utf-8
              - name: file body
                request: {method: POST, url: echo/file, bodyFile: body.txt, contentType: text/plain}
              - name: multipart
                request:
                  method: POST
                  url: echo/multipart
                  multipart:
                    - {name: caption, value: "@not a file; type=x"}
                    - {name: typed, value: "v", contentType: "text/plain; charset=utf-8"}
                    - {name: photo, file: a.png, contentType: image/png}
                    - {name: inline, data: "inline data", filename: 'a"b.txt'}
              - name: delete without body
                request: {method: DELETE, url: echo/items/7, followRedirects: false, timeout: 5s}
              - name: hostile capture
                steps:
                  - request:
                      method: POST
                      url: echo/first
                      json: {v: \(jsonString(hostile)), h: \(jsonString(oneLine))}
                    capture: {v: {jsonpath: $.json.v}, h: {jsonpath: $.json.h}}
                  - request:
                      method: POST
                      url: echo/second
                      query: {v: "{{ v }}"}
                      headers: {X-H: "{{ h }}"}
                      body: "{{ v }}"
            """
        let file = folder.appendingPathComponent("echo.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// The commands of a `--curl` file or an export, by their `# suite › test › step N` label.
    static func commands(in script: String) -> [(label: String, text: String)] {
        script.components(separatedBy: "\n\n# ").dropFirst().map { block in
            let label = String(block.prefix { $0 != "\n" })
            let text = String(block.dropFirst(label.count + 1))
            return (label, text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Runs `command` through `shell` in `folder` and returns what `/echo` describes.
    static func run(_ command: String, shell: String, in folder: URL) async throws -> [String: Any] {
        let result = try await runProcess(
            URL(fileURLWithPath: shell), ["-c", "set -e\n" + command + " --silent --show-error"],
            environment: ["APITEST_CURL_SECRET": secret], currentDirectory: folder)
        #expect(result.exitCode == 0, "\(shell): \(command)\n\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The top-level JSON objects of `text`, one after the other (what a script of several commands prints).
    static func objects(in text: String) throws -> [[String: Any]] {
        var objects: [[String: Any]] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = text.utf8.startIndex
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case UInt8(ascii: "{"):
                if depth == 0 { start = index }
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    let data = Data(text.utf8[start...index])
                    objects.append(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
                }
            default: break
            }
        }
        return objects
    }

    /// What must agree between two `/echo` descriptions: everything but the multipart boundary and where curl's
    /// `-u` puts `Authorization`, with the secret (and the Basic credential made of it) masked as reports mask it.
    static func comparable(_ echo: [String: Any]) -> [String: String] {
        func masked(_ text: String) -> String {
            let basic = Data("alice:\(secret)".utf8).base64EncodedString()
            return text.replacingOccurrences(of: basic, with: "•••••").replacingOccurrences(of: secret, with: "•••••")
        }
        var result: [String: String] = [:]
        let multipart = echo["multipart"] is [Any]
        // A multipart body differs by its boundary: it is compared part by part below.
        let keys = multipart ? ["method", "path", "query"] : ["method", "path", "query", "bodySize", "bodySHA256"]
        for key in keys { result[key] = "\(echo[key] ?? "none")" }
        var headers = (echo["headers"] as? [[String]]) ?? []
        headers = headers.filter { pair in
            let name = pair[0].lowercased()
            if name == "authorization" {
                result["authorization"] = masked(pair[1])
                return false
            }
            return !(multipart && (name == "content-type" || name == "content-length"))
        }
        // A header whose value holds a secret shows as the mask alone or with the rest of its value around it.
        headers = headers.map { pair in masked(pair[1]).contains("•••••") ? [pair[0], "•••••"] : pair }
        result["headers"] = "\(headers)"
        if let parts = echo["multipart"] as? [[String: Any]] {
            result["multipart"] = parts.map { part in
                ["name", "filename", "contentType", "size", "sha256", "value"].map { "\(part[$0] ?? "none")" }
                    .joined(separator: "|")
            }.joined(separator: "\n")
        }
        return result
    }

    @Test func everyCommandOfTheCurlFileSendsWhatApitestSent() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = try Self.suite(port: demo.port, folder: folder)
        let curlFile = folder.appendingPathComponent("requests.sh")
        let report = folder.appendingPathComponent("report.json")
        let run = try await runAPITest(
            ["run", suite.path, "--jobs", "1", "--curl", curlFile.path, "--report-json", report.path],
            environment: ["APITEST_CURL_SECRET": Self.secret])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")

        let script = try String(contentsOf: curlFile, encoding: .utf8)
        #expect(!script.contains(Self.secret))
        #expect(script.contains(#""${APITEST_CURL_SECRET}""#))
        let commands = Self.commands(in: script)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        var compared = 0
        for suite in document["suites"] as? [[String: Any]] ?? [] {
            for test in suite["tests"] as? [[String: Any]] ?? [] {
                for step in test["steps"] as? [[String: Any]] ?? [] {
                    let index = (step["index"] as? Int ?? 0) + 1
                    let label = "Echo › \(test["name"] as? String ?? "") › step \(index)"
                    let command = try #require(commands.first { $0.label == label }, "no command for \(label)")
                    let response = try #require(step["response"] as? [String: Any])
                    let sent = try #require(
                        try JSONSerialization.jsonObject(with: Data((response["body"] as? String ?? "").utf8))
                            as? [String: Any])
                    for shell in Self.shells {
                        let replayed = try await Self.run(command.text, shell: shell, in: folder)
                        #expect(
                            Self.comparable(replayed) == Self.comparable(sent), "\(shell): \(label)\n\(command.text)")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared == 8)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("MARKER").path))
        // In the order sent: the labels follow the suite (one job).
        #expect(commands.map(\.label).first == "Echo › json put › step 1")
    }

    @Test func exportPrintsTheCommandsARunSends() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = try Self.suite(port: demo.port, folder: folder)
        let curlFile = folder.appendingPathComponent("requests.sh")
        let environment = ["APITEST_CURL_SECRET": Self.secret]
        let run = try await runAPITest(
            ["run", suite.path, "--jobs", "1", "--curl", curlFile.path], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let export = try await runAPITest(["export", "curl", suite.path], environment: environment)
        #expect(export.exitCode == 0, "\(export.stderr)")
        #expect(!export.stdout.contains(Self.secret))

        let sent = Self.commands(in: try String(contentsOf: curlFile, encoding: .utf8))
        let exported = Self.commands(in: export.stdout)
        #expect(exported.map(\.label) == sent.map(\.label))
        for (exportedCommand, sentCommand) in zip(exported, sent)
        where !exportedCommand.label.hasPrefix("Echo › hostile") {
            #expect(exportedCommand.text == sentCommand.text, "\(exportedCommand.label)")
        }
        // A capture is not known before the response: the export holds its name, quoted, with a note.
        let second = try #require(exported.first { $0.label == "Echo › hostile capture › step 2" })
        #expect(
            second.text.contains("# note: {{ v }} is captured from a response when the test runs"), "\(second.text)")
        #expect(second.text.contains("'X-H: {{ h }}'"))
        #expect(second.text.contains("--globoff"))
    }

    @Test func theCurlFileRunsWithShAndBashAndSendsTheExactBytes() async throws {
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = folder.appendingPathComponent("hostile.yaml")
        try """
        name: Hostile
        baseURL: http://127.0.0.1:\(demo.port)/
        tests:
          - name: captured and sent back
            steps:
              - request:
                  method: POST
                  url: echo/first
                  json: {v: \(Self.jsonString(Self.hostile)), h: \(Self.jsonString(Self.oneLine))}
                capture: {v: {jsonpath: $.json.v}, h: {jsonpath: $.json.h}}
              - request:
                  method: POST
                  url: echo/second
                  headers: {X-H: "{{ h }}", X-Token: "Bearer {{ env.APITEST_CURL_SECRET }}"}
                  body: "{{ v }}"
        """.write(to: suite, atomically: true, encoding: .utf8)
        let curlFile = folder.appendingPathComponent("requests.sh")
        let run = try await runAPITest(
            ["run", suite.path, "--curl", curlFile.path], environment: ["APITEST_CURL_SECRET": Self.secret])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let script = try String(contentsOf: curlFile, encoding: .utf8)
        #expect(script.hasPrefix("#!/bin/sh\n"))
        #expect(!script.contains("$'"), "bash's quoting, which dash does not read:\n\(script)")
        #expect(!script.unicodeScalars.contains("\u{202E}"), "a raw right-to-left override:\n\(script)")

        for shell in ["/bin/sh", "/bin/dash", "/bin/bash"] {
            let result = try await runProcess(
                URL(fileURLWithPath: shell), [curlFile.path], environment: ["APITEST_CURL_SECRET": Self.secret],
                currentDirectory: folder)
            #expect(result.exitCode == 0, "\(shell): \(result.stderr)")
            let echoes = try Self.objects(in: result.stdout)
            #expect(echoes.count == 2, "\(shell): \(result.stdout)")
            let second = try #require(echoes.last)
            let headers = (second["headers"] as? [[String]]) ?? []
            #expect(headers.contains(["X-H", Self.oneLine]), "\(shell): \(headers)")
            #expect(headers.contains(["X-Token", "Bearer \(Self.secret)"]), "\(shell): \(headers)")
            #expect(second["body"] as? String == Self.hostile, "\(shell)")
            #expect(second["path"] as? String == "/echo/second")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("MARKER").path))
    }
}
