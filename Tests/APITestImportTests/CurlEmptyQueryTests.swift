import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// Two loose ends of `import curl`: `-G` with empty data (`--data-urlencode '='`, `''`, `-d ''`) added to a URL
/// without a query writes no `?` (curl 7.88.1 sent `GET /r` at a local listener; the old import wrote `/r?`), and the
/// note of an output-only option (`-s`, `-S`) names the line the option is written on, not the line its command
/// starts on (the old import said line 3 for a `-S` on continuation line 4).
struct CurlEmptyQueryTests {
    @Test func emptyDataAddsNoQuestionMark() throws {
        // What curl 7.88.1 sent for each, seen at a local listener.
        let cases: [(command: String, url: String)] = [
            ("curl -G http://a/r --data-urlencode '='", "{{ base }}/r"),
            ("curl -G http://a/r --data-urlencode ''", "{{ base }}/r"),
            ("curl -G http://a/r -d ''", "{{ base }}/r"),
            ("curl -G 'http://a/r?' -d ''", "{{ base }}/r"),
            ("curl -G 'http://a/r?x=1' -d ''", "{{ base }}/r?x=1&"),
            ("curl -G 'http://a/r?x=1&' -d ''", "{{ base }}/r?x=1&"),
            ("curl -G 'http://a/r?x=1' --data-urlencode '='", "{{ base }}/r?x=1&"),
            ("curl -G http://a/r -d '' -d ''", "{{ base }}/r?&"),
            ("curl -G http://a/r -d '' -d a=1", "{{ base }}/r?&a=1"),
        ]
        for (command, url) in cases {
            let suite = try CurlImporterTests.suite(command)
            #expect(suite.tests.first?.request.url == url, "\(command)")
        }
    }

    @Test func anOptionsNoteNamesItsOwnLine() throws {
        let text = """
            curl http://a/1
            curl -X POST http://a/2

            curl -s \\
              -S \\
              http://a/3 \\
              -o out.json
            """
        let suite = try CurlOutputNoteTests.suite(text, lines: true)
        #expect(
            suite.notes.map(\.rendered) == [
                "-s (line 4): apitest has no progress meter to silence, and reports every error; dropped",
                "-S (line 5): apitest has no progress meter to silence, and reports every error; dropped",
                "-o (line 7): where curl prints or saves the response; apitest's reports hold it (--report-json); "
                    + "dropped",
            ])
    }
}
