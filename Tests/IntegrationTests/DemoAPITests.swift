import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `apitest-demo` exercised through real clients (curl and Python) on 127.0.0.1, one server per test.
@Suite final class DemoAPITests {
    /// The folder of this test's temporary files, removed when the test ends.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: scratch) }

    // MARK: - Helpers

    /// Runs `body` against a fresh server that is stopped however the test ends.
    func withDemo(_ arguments: [String] = [], _ body: (DemoServer) async throws -> Void) async throws {
        let demo = try await DemoServer.start(extraArguments: arguments)
        defer { demo.stop() }
        try await body(demo)
    }

    func curl(_ demo: DemoServer, _ path: String, _ options: [String] = []) async throws -> CurlExchange {
        try await CurlExchange.run(demo.baseURL + path, options)
    }

    func python(_ script: String, _ arguments: [String] = []) async throws -> ProcessResult {
        let result = try await runProcess(try TestBinaries.tool("python3"), ["-c", script] + arguments)
        #expect(result.exitCode == 0, "python failed: \(result.stderr)")
        return result
    }

    func temporaryFile(_ name: String, _ data: Data) throws -> URL {
        let folder = scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// A sparse file of `size` zero bytes (costs no disk).
    func sparseFile(size: UInt64) throws -> URL {
        let file = try temporaryFile("sparse.bin", Data())
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: size)
        try handle.close()
        return file
    }

    func sha256(_ file: URL) async throws -> String {
        let result = try await runProcess(try TestBinaries.tool("sha256sum"), [file.path])
        return String(result.stdout.prefix(64))
    }

    /// Peak resident memory of a process in KiB.
    func peakMemoryKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    static let allBytesSHA256 = "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880"

    // MARK: - Command line

    @Test func commandLineErrorsExitWithTwoAndOneLine() async throws {
        let demo = try TestBinaries.url("apitest-demo")
        for arguments in [["--port", "abc"], ["--port", "70000"], ["--bogus"], ["--port"], ["--host", ""]] {
            let result = try await runProcess(demo, arguments, timeout: .seconds(10))
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("apitest-demo: error: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        let help = try await runProcess(demo, ["--help"], timeout: .seconds(10))
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("--port"))
    }

    @Test func printsOneListeningLineAndStopsCleanlyOnSignals() async throws {
        for signal in [SIGTERM, SIGINT] {
            let demo = try await DemoServer.start(extraArguments: ["--log"])
            #expect(demo.port > 0)
            #expect(try await curl(demo, "/health").status == 200)
            kill(demo.processIdentifier, signal)
            let started = ContinuousClock.now
            while demo.terminationStatus == nil, ContinuousClock.now - started < .seconds(20) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(demo.terminationStatus == 0, "signal \(signal)")
            // The server stops at the latest `shutdownGrace` (2 s) after the signal. It says how long it took
            // (with --log): measured there, a test runner slowed by the other tests on a 2-core machine (which once
            // saw 7 s go by) does not count its own delays.
            for _ in 0..<200 where demo.standardError.firstMatch(of: /stopped \d+ ms/) == nil {
                try await Task.sleep(for: .milliseconds(10)) // the last bytes may still be in the pipe
            }
            let match = try #require(demo.standardError.firstMatch(of: /stopped (\d+) ms after the signal/))
            #expect(try #require(Int(match.1)) <= 2_500, "signal \(signal): \(demo.standardError)")
            demo.stop()
        }
    }

    @Test func exitWithParentLeavesNoOrphan() async throws {
        let demo = try TestBinaries.url("apitest-demo").path
        let shell = try await runProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "'\(demo)' --port 0 --exit-with-parent >/dev/null 2>&1 & echo $!; sleep 0.5"])
        let pid = try #require(Int32(shell.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let started = ContinuousClock.now
        func alive() -> Bool {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            // The same PID running something else is not the demo: a PID is reused once its process is gone.
            let command = (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? ""
            return status.contains("State:") && !status.contains("zombie") && command.contains("apitest-demo")
        }
        while alive(), ContinuousClock.now - started < .seconds(5) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!alive(), "apitest-demo \(pid) outlived its parent")
        if alive() { kill(pid, SIGKILL) }
    }

    @Test func stopsPromptlyWithARequestInFlight() async throws {
        let demo = try await DemoServer.start()
        async let slow = CurlExchange.run(demo.baseURL + "/delay/30000", ["--max-time", "20"])
        try await Task.sleep(for: .milliseconds(300))
        let took = try await demo.stopAndWait()
        // 2 s grace, then a hard stop; the rest is slack for a loaded 2-core CI machine.
        #expect(took < .seconds(6))
        #expect(demo.terminationStatus == 0)
        _ = try await slow
    }

    @Test func logsRequestsToStderrOnlyWithLog() async throws {
        try await withDemo(["--log"]) { demo in
            _ = try await curl(demo, "/health?x=1")
            try await Task.sleep(for: .milliseconds(100))
            #expect(demo.standardError.contains("GET /health?x=1 200"), "\(demo.standardError)")
        }
        try await withDemo { demo in
            _ = try await curl(demo, "/health")
            #expect(demo.standardError.isEmpty)
        }
    }

    // MARK: - Fixed documents

    @Test func healthJSONAndErrors() async throws {
        try await withDemo { demo in
            let health = try await curl(demo, "/health")
            #expect(health.status == 200)
            #expect(health.header("Content-Type") == "application/json")
            #expect(health.text == #"{"status":"ok"}"#)

            let sample = try await curl(demo, "/json")
            let slideshow = try #require(try sample.json()["slideshow"] as? [String: Any])
            #expect(slideshow["title"] as? String == "Sample Slide Show")
            #expect(slideshow["author"] as? String == "Yours Truly")
            let slides = try #require(slideshow["slides"] as? [[String: Any]])
            #expect(slides.count == 2)
            #expect(slides[1]["items"] as? [String] == ["Why WonderWidgets are great", "Who buys WonderWidgets"])

            let missing = try await curl(demo, "/no/such/path")
            #expect(missing.status == 404)
            #expect(missing.text == #"{"error":"not found","path":"/no/such/path"}"#)

            let wrongMethod = try await curl(demo, "/health", ["-X", "DELETE"])
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "GET, HEAD")

            let head = try await curl(demo, "/json", ["-I"])
            #expect(head.status == 200)
            #expect(!head.text.contains("slideshow"), "HEAD sends no body (curl -I writes the head to -o)")
            #expect(head.header("Content-Length") == String(sample.body.count))
        }
    }

    @Test func xmlHTMLTextAndPropertyLists() async throws {
        try await withDemo { demo in
            let xml = try await curl(demo, "/xml")
            #expect(xml.header("Content-Type") == "application/xml")
            let books = try await python(
                """
                import sys, xml.etree.ElementTree as ET
                root = ET.fromstring(open(sys.argv[1], 'rb').read())
                print(root.tag, len(root.findall('book')), root.find('book/price').get('currency'))
                """, [try temporaryFile("c.xml", xml.body).path])
            #expect(books.stdout == "catalog 3 EUR\n")

            let html = try await curl(demo, "/html")
            #expect(html.header("Content-Type") == "text/html; charset=utf-8")
            #expect(html.text.contains("<h1>apitest demo</h1>"))

            let latin1 = try await curl(demo, "/text?charset=iso-8859-1")
            #expect(latin1.header("Content-Type") == "text/plain; charset=iso-8859-1")
            #expect(latin1.body.contains(0xFC)) // ü as one byte
            #expect(String(data: latin1.body, encoding: .isoLatin1)?.hasPrefix("Grüße") == true)
            #expect(try await curl(demo, "/text?charset=klingon").status == 400)

            let check = """
                import plistlib, sys, json
                print(json.dumps(plistlib.load(open(sys.argv[1], 'rb')), sort_keys=True))
                """
            let expected = #"{"name": "apitest", "nested": {"ok": true}, "tags": ["a", "b"], "version": 1}"# + "\n"
            let xmlPlist = try await curl(demo, "/plist")
            #expect(xmlPlist.header("Content-Type") == "application/x-plist")
            #expect(try await python(check, [try temporaryFile("a.plist", xmlPlist.body).path]).stdout == expected)
            let binary = try await curl(demo, "/plist?format=binary")
            #expect(binary.header("Content-Type") == "application/x-bplist")
            #expect(binary.body.starts(with: Array("bplist00".utf8)))
            #expect(try await python(check, [try temporaryFile("b.plist", binary.body).path]).stdout == expected)
        }
    }

    // MARK: - Users

    @Test func usersCRUDRoundTripAndErrors() async throws {
        try await withDemo { demo in
            let list = try await curl(demo, "/api/users").json()
            #expect(list["count"] as? Int == 2)
            let admins = try await curl(demo, "/api/users?role=admin").json()
            #expect((admins["users"] as? [[String: Any]])?.map { $0["name"] as? String } == ["alice"])

            let json = ["-H", "Content-Type: application/json"]
            let created = try await curl(demo, "/api/users", json + ["-d", #"{"name":"carol","email":"c@x.org"}"#])
            #expect(created.status == 201)
            #expect(created.header("Location") == "/api/users/3")
            #expect(created.text == #"{"id":3,"name":"carol","email":"c@x.org","role":"user"}"#)
            #expect(try await curl(demo, "/api/users/3").text == created.text)

            #expect(try await curl(demo, "/api/users", json + ["-d", #"{"name":"carol"}"#]).status == 409)
            let noName = try await curl(demo, "/api/users", json + ["-d", #"{"email":"x@y"}"#])
            #expect(noName.status == 400)
            #expect(try noName.json()["error"] is String)
            #expect(try await curl(demo, "/api/users", json + ["-d", "{not json"]).status == 400)
            #expect(try await curl(demo, "/api/users", json + ["-d", #"{"name":5}"#]).status == 400)

            let replaced = try await curl(demo, "/api/users/3", json + ["-X", "PUT", "-d", #"{"name":"carol2"}"#])
            #expect(replaced.text == #"{"id":3,"name":"carol2","email":null,"role":"user"}"#)
            #expect(try await curl(demo, "/api/users/99", json + ["-X", "PUT", "-d", #"{"name":"x"}"#]).status == 404)
            #expect(try await curl(demo, "/api/users/3", json + ["-X", "PUT", "-d", "[]"]).status == 400)
            let patched = try await curl(demo, "/api/users/3", json + ["-X", "PATCH", "-d", #"{"role":"admin"}"#])
            #expect(patched.text == #"{"id":3,"name":"carol2","email":null,"role":"admin"}"#)
            #expect(
                try await curl(demo, "/api/users/3", json + ["-X", "PATCH", "-d", #"{"name":"bob"}"#]).status == 409)

            #expect(try await curl(demo, "/api/users/3", ["-X", "DELETE"]).status == 204)
            let gone = try await curl(demo, "/api/users/3")
            #expect(gone.status == 404)
            #expect(gone.text == #"{"error":"user 3 not found"}"#)
            #expect(try await curl(demo, "/api/users/3", ["-X", "DELETE"]).status == 404)
            let next = try await curl(demo, "/api/users", json + ["-d", #"{"name":"dave"}"#]).json()
            #expect(next["id"] as? Int == 4, "ids keep increasing after a delete")

            #expect(try await curl(demo, "/api/reset", ["-X", "POST"]).status == 200)
            #expect(try await curl(demo, "/api/users").json()["count"] as? Int == 2)
            let afterReset = try await curl(demo, "/api/users", json + ["-d", #"{"name":"erin"}"#]).json()
            #expect(afterReset["id"] as? Int == 3)
        }
    }

    @Test func concurrentCreatesGetDistinctIDs() async throws {
        try await withDemo { demo in
            let ids = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let body = #"{"name":"user\#(index)"}"#
                        let reply = try await CurlExchange.run(
                            demo.baseURL + "/api/users", ["-H", "Content-Type: application/json", "-d", body])
                        return try reply.json()["id"] as? Int
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1 ?? -1) }
            }
            #expect(Set(ids) == Set(3..<19))
            #expect(try await curl(demo, "/api/users").json()["count"] as? Int == 18)
        }
    }

    // MARK: - Echo

    @Test func echoKeepsHeaderOrderRepeatsQueryAndBody() async throws {
        try await withDemo { demo in
            let reply = try await curl(
                demo, "/echo/a%20b?x=1&x=2&flag&name=J%C3%BCrgen+M",
                [
                    "-X", "PATCH", "-H", "X-B: 1", "-H", "X-A: 2", "-H", "X-B: 3", "-H",
                    "Content-Type: application/json",
                    "--data-binary", #"{"n":1.50,"list":[true,null]}"#,
                ])
            let echo = try reply.json()
            #expect(echo["method"] as? String == "PATCH")
            #expect(echo["path"] as? String == "/echo/a%20b")
            #expect(echo["query"] as? String == "x=1&x=2&flag&name=J%C3%BCrgen+M")
            let args = try #require(echo["args"] as? [String: [String]])
            #expect(args == ["x": ["1", "2"], "flag": [""], "name": ["Jürgen M"]])
            let headers = try #require(echo["headers"] as? [[String]])
            #expect(headers.first?.first == "Host")
            let custom = headers.filter { $0.first?.hasPrefix("X-") == true }
            #expect(custom == [["X-B", "1"], ["X-A", "2"], ["X-B", "3"]])
            #expect(echo["body"] as? String == #"{"n":1.50,"list":[true,null]}"#)
            #expect(echo["bodySize"] as? Int == 29)
            #expect(echo["bodyBase64"] == nil)
            #expect(reply.text.contains(#""json":{"n":1.50,"list":[true,null]}"#), "numbers and key order kept")
            #expect(echo["form"] is NSNull)
            #expect(echo["multipart"] is NSNull)

            let form = try await curl(demo, "/echo", ["-d", "a=1&b=two+words&a=%C3%A9"]).json()
            #expect(form["form"] as? [String: [String]] == ["a": ["1", "é"], "b": ["two words"]])
            #expect(form["json"] is NSNull)

            let binary = try temporaryFile("all.bin", Data((0...255).map { UInt8($0) }))
            let raw = try await curl(demo, "/echo", ["--data-binary", "@\(binary.path)"]).json()
            #expect(raw["body"] is NSNull)
            #expect(raw["bodyBase64"] as? String == Data((0...255).map { UInt8($0) }).base64EncodedString())
            #expect(raw["bodySize"] as? Int == 256)
            #expect(raw["bodySHA256"] as? String == Self.allBytesSHA256)

            let oversized = try await curl(
                demo, "/echo", ["--data-binary", "@\(try sparseFile(size: 300 << 20).path)"])
            #expect(oversized.status == 413)
        }
    }

    @Test func echoDescribesMultipartParts() async throws {
        try await withDemo { demo in
            let allBytes = try temporaryFile("all.bin", Data((0...255).map { UInt8($0) }))
            let unicodeContent = Data("héllo\r\n--not-a-boundary\r\n".utf8)
            let unicode = try temporaryFile("naïve €.txt", unicodeContent)
            let reply = try await curl(
                demo, "/echo",
                [
                    "-F", "caption=at the beach", "-F", "file=@\(allBytes.path);type=application/octet-stream",
                    "-F", "notes=@\(unicode.path)",
                ])
            let parts = try #require(try reply.json()["multipart"] as? [[String: Any]])
            #expect(parts.count == 3)
            #expect(parts[0]["name"] as? String == "caption")
            #expect(parts[0]["filename"] is NSNull)
            #expect(parts[0]["value"] as? String == "at the beach")
            #expect(parts[0]["size"] as? Int == 12)
            #expect(parts[1]["filename"] as? String == "all.bin")
            #expect(parts[1]["contentType"] as? String == "application/octet-stream")
            #expect(parts[1]["size"] as? Int == 256)
            #expect(parts[1]["sha256"] as? String == Self.allBytesSHA256)
            #expect(parts[2]["filename"] as? String == "naïve €.txt")
            #expect(parts[2]["size"] as? Int == unicodeContent.count)
            #expect(parts[2]["sha256"] as? String == (try await sha256(unicode)))
            let headers = try #require(parts[1]["headers"] as? [[String]])
            #expect(headers.map { $0.first ?? "" } == ["Content-Disposition", "Content-Type"])

            // Hand-made body: preamble, transport padding, filename* (RFC 5987), a part without headers, epilogue.
            let body = Data(
                ("preamble to ignore\r\n--XyZ  \r\nContent-Disposition: form-data; name=\"doc\";"
                    + " filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20r%C3%A9sum%C3%A9.txt\r\n"
                    + "Content-Type: text/plain\r\n\r\n"
                    + "line1\r\nline2\r\n--XyZ\r\n\r\nno headers\r\n--XyZ--\r\nepilogue").utf8)
            let crafted = try await curl(
                demo, "/echo",
                [
                    "-H", "Content-Type: multipart/form-data; boundary=\"XyZ\"", "--data-binary",
                    "@\(try temporaryFile("body", body).path)",
                ])
            let craftedParts = try #require(try crafted.json()["multipart"] as? [[String: Any]])
            #expect(craftedParts.count == 2)
            #expect(craftedParts.first?["filename"] as? String == "€ résumé.txt")
            #expect(craftedParts.first?["size"] as? Int == 12)
            #expect(craftedParts.last?["name"] is NSNull)
            #expect(craftedParts.last?["value"] as? String == "no headers")

            let broken = try await curl(
                demo, "/echo", ["-H", "Content-Type: multipart/form-data; boundary=abc", "-d", "--abc\r\nno end"])
            #expect(broken.status == 400)
        }
    }

    // MARK: - Streaming

    @Test func sinkStreamsAHugeUploadInFlatMemory() async throws {
        try await withDemo { demo in
            #expect(try await curl(demo, "/sink", ["--data-binary", "hello"]).text == #"{"bytes":5}"#)
            let before = try peakMemoryKiB(demo.processIdentifier)
            let size: UInt64 = 200 << 20
            let reply = try await curl(demo, "/sink", ["-T", try sparseFile(size: size).path])
            #expect(reply.text == #"{"bytes":\#(size)}"#)
            let after = try peakMemoryKiB(demo.processIdentifier)
            #expect(after - before < 100 * 1024, "peak RSS grew from \(before) KiB to \(after) KiB")
            #expect(try await curl(demo, "/sink").status == 405)
            // curl asks `Expect: 100-continue` for bodies over 1 MiB; the server answers at once.
            let interim = try await curl(
                demo, "/sink", ["-v", "--data-binary", "@\(try sparseFile(size: 2 << 20).path)"])
            #expect(interim.text == #"{"bytes":\#(2 << 20)}"#)
            #expect(interim.stderr.contains("HTTP/1.1 100 Continue"), "\(interim.stderr)")
        }
    }

    @Test func bytesAreDeterministicAndStreamed() async throws {
        try await withDemo { demo in
            let first = try await curl(demo, "/bytes/100000")
            #expect(first.body.count == 100000)
            #expect(first.header("Content-Length") == "100000")
            #expect(first.header("Content-Type") == "application/octet-stream")
            #expect(try await curl(demo, "/bytes/100000").body == first.body)
            #expect(try await curl(demo, "/bytes/100000?seed=42").body == first.body)
            #expect(try await curl(demo, "/bytes/100000?seed=7").body != first.body)
            #expect(try await curl(demo, "/bytes/1001").body == first.body.prefix(1001))
            let chunked = try await curl(demo, "/stream-bytes/100000")
            #expect(chunked.body == first.body)
            #expect(chunked.header("Transfer-Encoding")?.lowercased() == "chunked")
            #expect(chunked.header("Content-Length") == nil)
            #expect(try await curl(demo, "/bytes/-1").status == 400)
        }
    }

    @Test func dripSpreadsBytesOverTime() async throws {
        try await withDemo { demo in
            // curl's own clock, so that a loaded machine's slow process start-up does not count.
            let reply = try await curl(
                demo, "/drip?numbytes=5&duration=1000&delay=500", ["-w", "%{time_starttransfer} %{time_total}"])
            let times = reply.stdout.split(separator: " ").compactMap { Double($0) }
            #expect(reply.text == "*****")
            #expect(times.count == 2, "curl printed \(reply.stdout)")
            let (firstByte, total) = (times.first ?? 0, times.last ?? 0)
            #expect(total >= 1.4 && total < 4, "took \(total) s")
            #expect(firstByte >= 0.45, "first byte after \(firstByte) s")
            let cut = try await curl(demo, "/drip?numbytes=3&duration=3000", ["--max-time", "1"])
            #expect(cut.exitCode == 28)
        }
    }

    // MARK: - Status, delay, redirects

    @Test func statusCodesAndDelay() async throws {
        try await withDemo { demo in
            let teapot = try await curl(demo, "/status/418", ["-X", "POST"])
            #expect(teapot.status == 418)
            #expect(teapot.text == #"{"status":418}"#)
            let noContent = try await curl(demo, "/status/204")
            #expect(noContent.status == 204)
            #expect(noContent.body.isEmpty)
            #expect(try await curl(demo, "/status/304").body.isEmpty)
            #expect(try await curl(demo, "/status/503").status == 503)
            for bad in ["150", "600", "abc"] { #expect(try await curl(demo, "/status/\(bad)").status == 400) }

            let started = ContinuousClock.now
            #expect(try await curl(demo, "/delay/300").text == #"{"delayed":300}"#)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(try await curl(demo, "/delay/60001").status == 400)
        }
    }

    @Test func redirectsCountDown() async throws {
        try await withDemo { demo in
            let first = try await curl(demo, "/redirect/3")
            #expect(first.status == 302)
            #expect(first.header("Location") == "/redirect/2")
            let followed = try await curl(demo, "/redirect/4", ["-L", "-w", "%{num_redirects}"])
            #expect(followed.stdout == "4")
            #expect(followed.text == #"{"redirected":true}"#)
            let absolute = try await curl(demo, "/absolute-redirect/2")
            #expect(absolute.header("Location") == "\(demo.baseURL)/absolute-redirect/1")
            #expect(try await curl(demo, "/absolute-redirect/2", ["-L", "-w", "%{num_redirects}"]).stdout == "2")
            let to = try await curl(demo, "/redirect-to?url=%2Fjson&status=307")
            #expect(to.status == 307)
            #expect(to.header("Location") == "/json")
            #expect(try await curl(demo, "/redirect-to?url=/json&status=200").status == 400)
        }
    }
}
