import Foundation
import Testing

/// `apitest import curl` end to end: for each command line, real curl and the imported suite send to the demo's
/// `/echo`, and what arrived must be the same: method, path, query, headers and body (multipart part by part). The
/// transport and authentication options are among the cases (`--resolve`, `--connect-to`, `--http1.1`, `--proxy`
/// with `--noproxy`, `--oauth2-bearer`, `--digest`, `--ntlm`, netrc); `--unix-socket` is not, since the demo listens
/// on TCP only, and `--aws-sigv4` is not, since its signature covers the second it is made in.
///
/// Headers are compared as a multiset, not in order: curl's libcurl puts the fields it makes from options
/// (`Authorization` from `-u`, `User-Agent`, `Referer`, `Cookie`, a generated `Content-Type`) at fixed places around
/// the `-H` fields, while a suite hands every field to libcurl as a request header, so the same fields can come in
/// another order (HTTP gives the order of different field names no meaning). `User-Agent` is curl's or apitest's
/// unless the command sets one. A multipart body is compared part by part (names, filenames, content types,
/// part headers, sizes and SHA-256) since its boundary is random, and its `Content-Length` with it.
///
/// The comparison is made by the imported suite itself: the test adds to it an `expect` built from what curl's
/// request looked like at the echo, and `apitest run` must pass. (A report would not do: it masks credentials and
/// environment values in the echoed body.)
@Suite struct CurlImportTests {
    /// Command lines after `curl`; `URL` is replaced by a fresh `/echo/...` URL of the demo.
    static let cases: [String] = [
        "URL",
        "-sS URL",
        "-X DELETE URL",
        "-XPATCH URL -d 'a=1'",
        "--request PUT URL --data 'x=1'",
        "-H 'X-A: 1' -H 'X-B: two words' URL",
        "-H 'Accept: application/json' URL",
        "-H 'X-Empty;' URL",
        "-H 'Expect:' -d a=1 URL",
        "-H 'Content-Type:' -d 'raw text' URL",
        "-H 'Content-Type: text/plain' -d 'hello' URL",
        "-d 'a=1' -d 'b=2' URL",
        "--data-ascii 'a=1' URL",
        "--data-raw '@notafile' URL",
        "-d @body.json URL",
        "-d @crlf.txt URL",
        "-d @form.txt URL",
        "--data-binary @body.json URL",
        "--data-binary @data.bin URL",
        "--data-binary @crlf.txt -H 'Content-Type: text/plain' URL",
        "--data-urlencode 'q=a b&c=ü' URL",
        "--data-urlencode '=x y' --data-urlencode plain URL",
        "--data-urlencode 'n@notes.txt' URL",
        "-d a=1 --data-urlencode 'b=2 3' URL",
        "-G -d 'a=1' -d 'b=2' URL",
        "-G --data-urlencode 'q=x y' 'URL?page=2'",
        "'URL?x=1&x=2&flag'",
        "-F 'caption=at the beach' URL",
        "-F 'file=@photo.png' URL",
        "-F 'file=@notes.txt;type=text/markdown' URL",
        "-F 'file=@data.bin;filename=renamed.pdf' URL",
        "-F 'a=1' -F 'b=2;type=text/x' -F 'file=@photo.png;type=image/png;filename=p.png' URL",
        "-F 'text=<notes.txt' URL",
        "--form-string 'literal=@not;a=file' URL",
        "-F 'q=\"quoted;value\"' URL",
        "-u 'alice:pa ss' URL",
        "-u \"alice:$API_PASSWORD\" URL",
        "--user 'bob:pa ss' URL",
        "-b 'session=abc' URL",
        "-b 'a=1' -b 'b=2' URL",
        "-b 'a=1' -H 'Cookie: c=3' URL",
        "-A 'my-agent/1.0' URL",
        "--user-agent 'Mozilla/5.0 (X11)' URL",
        "-e 'https://example.com/from' URL",
        "--referer 'https://example.com/;auto' URL",
        "-k URL",
        "--insecure -sSL URL",
        "-L URL",
        "-L --max-redirs 3 URL",
        "--compressed URL",
        "--max-time 10 URL",
        "-m 2.5 --connect-timeout 1 URL",
        "--cacert cert.pem URL",
        "--cert cert.pem --key key.pem URL",
        "-E cert.pem --key key.pem --cert-type PEM URL",
        "--pinnedpubkey 'sha256//y+AwyJo7kca+bv+/JhrE2Cd43vqBpVN+eeDW33TSD08=;sha256//AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/AbCdE=' URL",
        "--json '{\"name\":\"carol\"}' URL",
        "--json @body.json URL",
        "--json '{\"a\":' --json '1}' URL",
        "--json '{}' -H 'Accept: text/plain' URL",
        "-H \"Authorization: Bearer $API_TOKEN\" URL",
        "--oauth2-bearer tok123 URL",
        "-r 0-99 URL",
        "-H 'X-Quote: it'\\''s' -H $'X-Tab: a\\tb' URL",
        "-H \"X-Env: ${API_TOKEN}-suffix\" \"$ECHO_BASE/echo/env\"",
        "-X POST \\\n  -H 'X-Multi: line' \\\n  URL",
        "-sSL -XPOST -H'X-Attached: yes' -d'v=1' URL",
        "-I -A fixed-agent URL",
        // Transport: the host name stays the URL's (Host), the connection goes to the demo.
        "--resolve example.test:PORT:127.0.0.1 http://example.test:PORT/echo/NAME",
        "--connect-to example.test:80:127.0.0.1:PORT http://example.test/echo/NAME",
        "--http1.1 URL",
        // Through the demo as a proxy: both send the absolute form (GET http://example.test/echo/... HTTP/1.1) with
        // Proxy-Connection; the echo reports the path and query of the target, so the request line's form itself is
        // not compared.
        "-x 127.0.0.1:PORT http://example.test/echo/NAME?q=1",
        "--proxy http://127.0.0.1:9 --noproxy 127.0.0.1 URL",
        // Authentication.
        "--oauth2-bearer \"$API_TOKEN\" URL",
        "-u 'alice:pa ss' --oauth2-bearer tok123 URL",
        // The echo answers 200 without a challenge, so curl sends no Digest credentials: neither request carries
        // Authorization, which is what is compared here (the exchange after a challenge is libcurl's).
        "-u \"alice:$API_PASSWORD\" --digest URL",
        // NTLM's first message is sent at once and has no random part.
        "--ntlm -u 'alice:pa ss' URL",
        "--netrc-file my.netrc URL",
        "-n --netrc-optional --netrc-file my.netrc URL",
        // --unix-socket is not here: the demo listens on TCP only.
        // --data-urlencode's forms as curl splits and encodes them (issue 37): upper-case hex (`%2F`), `~` kept, a
        // space as `+`, a `=` anywhere making the name (`a@b=c/` is not a file), a file's bytes encoded.
        "--data-urlencode 'a=/ ~' --data-urlencode '/ ~' --data-urlencode '=x@y/' URL",
        "--data-urlencode 'a@b=c/' --data-urlencode 'k=a=b' URL",
        "--data-urlencode '@notes.txt' --data-urlencode 'n@data.bin' URL",
        // -G: libcurl's URL API appends the data with the hex digits of its escapes in lower case (`%2f`), after
        // an `&` only when the query is not empty and does not end with one, and before a fragment.
        "-G --data-urlencode 'q=/ ~%' --data-urlencode 'r=é' URL",
        "-G -d 'a=%2F%4A%zz' -d 'b=%4' 'URL?x=%2F&'",
        "-G --data-urlencode 'q=/' 'URL?'",
        "-G -d 'c=%2F' 'URL#frag'",
        // -G with empty data: no `?` on a URL without a query (or with an empty one), an `&` after a query.
        "-G --data-urlencode '=' URL",
        "-G -d '' 'URL?'",
        "-G --data-urlencode '' 'URL?x=1'",
    ]

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A folder with the files the cases name: text with and without line breaks, binary data, a PNG, and a
    /// certificate with its key (made by openssl).
    func fixtureFolder() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apitest-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        try write("body.json", Array("{\"name\": \"carol\",\n \"tags\": [\"a\"]}\n".utf8))
        try write("crlf.txt", Array("a\r\nb\r\n".utf8))
        try write("form.txt", Array("x=1&y=2".utf8))
        try write("notes.txt", Array("hello ü\nworld\n".utf8))
        try write("data.bin", (0..<300).map { UInt8(($0 * 7) % 256) })
        try write("my.netrc", Array("machine 127.0.0.1 login nina password np\n".utf8))
        try write("photo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<64).map { UInt8($0) })
        let openssl = try await runProcess(
            try TestBinaries.tool("openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "key.pem", "-out", "cert.pem", "-days", "30", "-subj", "/CN=localhost",
            ], currentDirectory: folder)
        try #require(openssl.exitCode == 0, "\(openssl.stderr)")
        return folder
    }

    @Test func importedRequestsAreTheBytesCurlSends() async throws {
        #expect(Self.cases.count >= 50)
        let demo = try await DemoServer.start()
        defer { demo.stop() }
        let folder = try await fixtureFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suites = folder.appendingPathComponent("suites")
        try FileManager.default.createDirectory(at: suites, withIntermediateDirectories: true)
        // Credentials written out are read from the environment (API_PASSWORD for -u's password, BEARER_TOKEN,
        // COOKIE_NAME): the cases write the values these hold, so the run sends what curl sends.
        let environment = [
            "API_TOKEN": "t0ken", "API_PASSWORD": "pa ss", "ECHO_BASE": demo.baseURL, "BEARER_TOKEN": "tok123",
            "COOKIE_SESSION": "abc", "COOKIE_A": "1", "COOKIE_B": "2", "COOKIE_C": "3",
        ]
        var curlEchoes: [String: String] = [:]
        for (index, tail) in Self.cases.enumerated() {
            let name = String(format: "case%02d", index)
            let command =
                "curl "
                + tail.replacingOccurrences(of: "URL", with: "\(demo.baseURL)/echo/\(name)")
                .replacingOccurrences(of: "PORT", with: "\(demo.port)").replacingOccurrences(of: "NAME", with: name)
            try command.write(to: folder.appendingPathComponent("\(name).sh"), atomically: true, encoding: .utf8)

            // curl, run by bash from the same text.
            let isHead = tail.hasPrefix("-I ")
            let output = folder.appendingPathComponent("\(name).curl")
            let curl = try await runProcess(
                URL(fileURLWithPath: "/bin/bash"), ["-c", command + " -s -o '\(output.path)'"],
                environment: environment, currentDirectory: folder)
            try #require(curl.exitCode == 0, "\(name): curl failed: \(curl.stderr)")
            let echoed = try String(contentsOf: output, encoding: .utf8)
            curlEchoes[name] = echoed

            // The import, of the same text.
            let imported = try await runProcess(
                try TestBinaries.url("apitest"),
                ["import", "curl", "-f", "\(name).sh", "-o", "suites/\(name).yaml", "--name", name],
                environment: ["NO_COLOR": "1"], currentDirectory: folder)
            try #require(imported.exitCode == 0, "\(name): import failed: \(imported.stderr)")
            let expectation =
                isHead ? try Self.headExpectation(curlHead: echoed) : try Self.expectation(curlEcho: echoed, tail: tail)
            let handle = try FileHandle(forWritingTo: suites.appendingPathComponent("\(name).yaml"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(expectation.utf8))
            try handle.close()
        }

        // The control: case05's expectation on a request that differs from it by one space in one header value
        // must fail, or the comparison would prove nothing.
        let control = try String(contentsOf: folder.appendingPathComponent("case05.sh"), encoding: .utf8)
            .replacingOccurrences(of: "two words", with: "two  words")
        try control.write(to: folder.appendingPathComponent("control.sh"), atomically: true, encoding: .utf8)
        let importedControl = try await runProcess(
            try TestBinaries.url("apitest"),
            ["import", "curl", "-f", "control.sh", "-o", "suites/control.yaml", "--name", "control"],
            environment: ["NO_COLOR": "1"], currentDirectory: folder)
        try #require(importedControl.exitCode == 0, "\(importedControl.stderr)")
        let handle = try FileHandle(forWritingTo: suites.appendingPathComponent("control.yaml"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(try Self.expectation(curlEcho: curlEchoes["case05"] ?? "", tail: "").utf8))
        try handle.close()

        let report = folder.appendingPathComponent("report.json")
        var env = environment
        env["NO_COLOR"] = "1"
        let run = try await runProcess(
            try TestBinaries.url("apitest"), ["run", "suites", "--report-json", report.path], environment: env,
            currentDirectory: folder, timeout: .seconds(120))
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let results = try #require(document?["suites"] as? [[String: Any]], "\(run.stdout)\n\(run.stderr)")
        #expect(results.count == Self.cases.count + 1)
        for suite in results {
            let name = suite["name"] as? String ?? "?"
            if name == "control" {
                let statuses = (suite["tests"] as? [[String: Any]] ?? []).map { $0["status"] as? String }
                #expect(statuses == ["failed"], "the control passed: the comparison does not see a changed header")
                continue
            }
            for test in suite["tests"] as? [[String: Any]] ?? [] where test["status"] as? String != "passed" {
                let data = try JSONSerialization.data(withJSONObject: test, options: [.prettyPrinted, .sortedKeys])
                let yaml = try String(contentsOf: suites.appendingPathComponent("\(name).yaml"), encoding: .utf8)
                Issue.record(
                    """
                    \(name) differs from curl: \(Self.cases[Int(name.dropFirst(4)) ?? 0])
                    curl's request at the echo: \(curlEchoes[name] ?? "")
                    suite: \(yaml)
                    result: \(String(decoding: data, as: UTF8.self).prefix(4000))
                    """)
            }
        }
        #expect(run.exitCode == 1, "\(run.stdout.suffix(3000))")
        #expect(run.stdout.contains("1 failed"), "\(run.stdout.suffix(3000))")
    }

    // MARK: - Expectations from curl's request

    /// `expect` lines (appended to the test, the last item of its file) that hold when the suite's request reached
    /// the echo as curl's did (`curlEcho`, the echo's description of curl's request).
    static func expectation(curlEcho: String, tail: String) throws -> String {
        let echo = try #require(try JSONSerialization.jsonObject(with: Data(curlEcho.utf8)) as? [String: Any])
        var checks: [(String, Any)] = [
            ("$.method", echo["method"] ?? NSNull()), ("$.path", echo["path"] ?? NSNull()),
            ("$.query", echo["query"] ?? NSNull()),
        ]
        let headers = try #require(echo["headers"] as? [[String]])
        let multipart = echo["multipart"] as? [Any]
        if let multipart {
            checks.append(("$.multipart", multipart))
        } else {
            checks.append(("$.bodySize", echo["bodySize"] ?? NSNull()))
            checks.append(("$.bodySHA256", echo["bodySHA256"] ?? NSNull()))
        }
        checks.append(("$.headers", ["filters": ["count"], "equals": headers.count]))
        var counts: [[String]: Int] = [:]
        var order: [[String]] = []
        for pair in headers {
            let name = pair[0].lowercased()
            if name == "user-agent", pair[1].hasPrefix("curl/") {
                checks.append(("$.headers[?@[0] == 'User-Agent']", ["filters": ["count"], "equals": 1]))
                continue
            }
            if multipart != nil, name == "content-type" {
                checks.append(
                    (
                        "$.headers[?@[0] == 'Content-Type'][1]",
                        ["filters": ["first"], "startsWith": "multipart/form-data; boundary="]
                    ))
                continue
            }
            if multipart != nil, name == "content-length" {
                checks.append(("$.headers[?@[0] == 'Content-Length']", ["filters": ["count"], "equals": 1]))
                continue
            }
            if counts[pair] == nil { order.append(pair) }
            counts[pair, default: 0] += 1
        }
        for pair in order {
            let path = "$.headers[?@[0] == \(jsonPathString(pair[0])) && @[1] == \(jsonPathString(pair[1]))]"
            checks.append((path, ["filters": ["count"], "equals": counts[pair] ?? 0]))
        }
        var lines = ["    expect:", "      status: 200", "      json:"]
        for (path, value) in checks {
            lines.append("        \(try json(path)): \(try json(value))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// For `-I`: the echo sends no body to a HEAD request, but its `Content-Length` is the size of its description
    /// of the request, which the same fixed `User-Agent` makes equal for the same request.
    static func headExpectation(curlHead: String) throws -> String {
        let line = try #require(
            curlHead.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") })
        let length = line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)
        return "    expect:\n      status: 200\n      headers:\n        Content-Length: \"\(length)\"\n"
    }

    /// `text` as a JSONPath string literal (RFC 9535: single quotes, `\` and `'` escaped).
    static func jsonPathString(_ text: String) -> String {
        "'"
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            .replacingOccurrences(of: "\t", with: "\\t") + "'"
    }

    /// `value` as JSON text (a flow scalar or collection YAML reads as the same value).
    static func json(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
