import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// The options that only change what curl prints or saves are said once for the whole import, one note per option
/// (options of one reason on the same lines together) naming the lines, not repeated on every test; and
/// `--data-urlencode` splits its word as curl does, and `-G` appends the data as libcurl's URL API does.
struct CurlOutputNoteTests {
    /// The suite of the command lines `text`, read as a file's (locations name lines) or as an argument's.
    static func suite(_ text: String, lines: Bool) throws -> SuiteDocument {
        let (importer, importFolder) = try CurlImporterTests.importer(lines: lines)
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        return try importer.importTexts([text])
    }

    @Test func eachOptionIsOneNoteWithItsLines() throws {
        let text = """
            curl -sS http://a/1
            curl -X POST http://a/2
            curl -sS -o out.json http://a/3
            curl --silent -S -v http://a/4 -o other.json
            curl -sS http://a/5 -w '%{http_code}'
            """
        let suite = try Self.suite(text, lines: true)
        #expect(
            suite.notes.map(\.rendered) == [
                "-s/--silent, -S (lines 1, 3, 4, 5): apitest has no progress meter to silence, and reports every "
                    + "error; dropped",
                "-o (lines 3, 4): where curl prints or saves the response; apitest's reports hold it "
                    + "(--report-json); dropped",
                "-v (line 4): curl's trace of the transfer; apitest run --verbose shows each exchange (secrets "
                    + "masked); dropped",
                "-w (line 5): what curl prints after the transfer; a test's expect and capture read the response; "
                    + "dropped",
            ])
        // No test repeats them.
        #expect(suite.tests.count == 5)
        for test in suite.tests { #expect(test.notes.isEmpty, "\(test.name): \(test.notes.map(\.rendered))") }
        // The suite says each once, above its settings.
        let rendered = SuiteDocumentRenderer(suite: suite).render()
        #expect(rendered.components(separatedBy: "no progress meter").count == 2)
        #expect(rendered.contains("# -s/--silent, -S (lines 1, 3, 4, 5): apitest has no progress meter"))
    }

    @Test func optionsOnOtherLinesAreOtherNotes() throws {
        let suite = try Self.suite("curl -s http://a/1\ncurl -S http://a/2\ncurl -s http://a/3", lines: true)
        #expect(
            suite.notes.map(\.rendered) == [
                "-s (lines 1, 3): apitest has no progress meter to silence, and reports every error; dropped",
                "-S (line 2): apitest has no progress meter to silence, and reports every error; dropped",
            ])
    }

    @Test func commandsGivenAsAnArgumentAreNumbered() throws {
        let several = try Self.suite("curl -sS http://a/1; curl -f http://a/2 && curl -sS http://a/3", lines: false)
        #expect(
            several.notes.map(\.rendered) == [
                "-s, -S (commands 1, 3): apitest has no progress meter to silence, and reports every error; dropped",
                "-f (command 2): curl's exit status on an HTTP error; a test checks the status (any 2xx unless "
                    + "expect.status says otherwise); dropped",
            ])
        let one = try Self.suite("curl -sS http://a/1", lines: false)
        #expect(
            one.notes.map(\.rendered) == [
                "-s, -S: apitest has no progress meter to silence, and reports every error; dropped"
            ])
        // A command curl's output is piped to is still noted on its own.
        let piped = try Self.suite("curl -s http://a/1 | jq .", lines: true)
        #expect(piped.notes.count == 2)
        #expect(piped.notes.map(\.rendered).last?.hasPrefix("-s (line 1): ") == true)
    }

    // MARK: - --data-urlencode

    @Test func dataURLEncodeSplitsAtTheFirstEqualsSignAsCurlDoes() throws {
        // curl 7.88 (tool_getparam.c, data_urlencode): a `=` anywhere makes the name (even after a `@`), then a `@`
        // a file; the content is curl_easy_escape'd (upper-case hex) with each %20 made `+`. These are the bytes
        // the real curl sent for each word (CurlImportTests compares them end to end).
        let cases: [(word: String, body: String)] = [
            ("a=/ ~", "a=%2F+~"),
            ("=/ ~", "%2F+~"),
            ("/ ~", "%2F+~"),
            ("a@b=c/", "a@b=c%2F"),
            ("a=b=c", "a=b%3Dc"),
            ("é%&+", "%C3%A9%25%26%2B"),
            ("n@body.json", "n=%7B%22a%22%3A+1%7D%0A"),
            ("@body.json", "%7B%22a%22%3A+1%7D%0A"),
        ]
        for (word, body) in cases {
            let quoted = "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
            let suite = try CurlImporterTests.suite("curl --data-urlencode \(quoted) http://a/x")
            guard case .text(let text, _) = suite.tests.first?.request.body else {
                Issue.record("\(word): no text body")
                continue
            }
            #expect(text == body, "\(word)")
        }
    }

    @Test func dataURLEncodeFromStandardInputIsRefused() throws {
        let (importer, importFolder) = try CurlImporterTests.importer()
        defer { try? FileManager.default.removeItem(atPath: importFolder) }
        #expect {
            try importer.importTexts(["curl --data-urlencode n@- http://a/x"])
        } throws: { error in
            (error as? CurlImporter.Failure)?.message.contains("reads standard input") == true
        }
    }

    @Test func getAppendsTheDataAsLibcurlDoes() throws {
        // What curl 7.88.1 sent, seen at a local listener: the data's escapes in lower case, no `&` after an empty
        // query or one that ends with `&`, the query before the fragment.
        let cases: [(command: String, url: String)] = [
            ("curl -G --data-urlencode 'q=/ ~%' http://a/p", "{{ base }}/p?q=%2f+~%25"),
            ("curl -G -d 'a=%2F%4A%zz' -d 'b=%4' 'http://a/p?x=%2F&'", "{{ base }}/p?x=%2F&a=%2f%4a%zz&b=%4"),
            ("curl -G --data-urlencode 'q=/' 'http://a/p?'", "{{ base }}/p?q=%2f"),
            ("curl -G -d 'c=%2F' 'http://a/p?x=1#frag'", "{{ base }}/p?x=1&c=%2f#frag"),
        ]
        for (command, url) in cases {
            let suite = try CurlImporterTests.suite(command)
            #expect(suite.tests.first?.request.url == url, "\(command)")
        }
    }
}
