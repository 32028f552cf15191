package import APITestResults
import Foundation

/// An HTTP Archive of the run (HAR 1.2, `--report-har`), which browsers' developer tools and HAR viewers open and
/// `apitest import har` reads back.
///
/// - `log.creator` is apitest and its version; `log.pages` has one page per suite (`page_1`, ... in the run's suite
///   order, titled with the suite's name), and each entry names its suite's page (`pageref`).
/// - `log.entries` has one entry per exchange, in the order the requests were sent (`startedDateTime`, with
///   milliseconds): each attempt of a step that retries (`retry:`) and of a test run again (`--retries`) is an entry
///   of its own, and so are the OAuth2 token requests a step sent and each hop of a followed redirect; `_apitest`
///   names the suite, file, test, step and attempt (`attempt` for the step's `retry:`, `testAttempt` for the
///   test's re-runs, `kind` `request`, `token` or `redirect`).
/// - The request has the headers as they went on the wire (libcurl's own included), the query string, cookies (from
///   `Cookie`) and `postData` (its media type and text, a form's `params`, a multipart body's parts with their
///   `fileName`); the response has its status line, headers, cookies (from `Set-Cookie`), `redirectURL` (from
///   `Location`) and `content`: its text up to the report preview limit (a `comment` says when it was cut), or its
///   first bytes base64-encoded (`encoding: base64`) when it is no UTF-8 text.
/// - `timings` come from libcurl's `CURLINFO_*_TIME_T` values: `dns` (name lookup), `connect` (TCP and TLS),
///   `ssl` (TLS), `blocked` (from connected to about to send), `send` (0: libcurl 7.88 does not time it apart),
///   `wait` (to the first response byte) and `receive` (to the end); -1 for what did not happen (no lookup or
///   connection on a reused connection, no TLS on plain HTTP). `time` is their sum.
/// - `serverIPAddress` is the server's address, `connection` the local port of the connection, which exchanges on
///   one connection share.
/// - An exchange that got no response has status 0 and its error in `_error`.
///
/// Every text comes from the sealed results, masked as every report's: a secret appears in no entry, in no
/// encoding (base64 bodies are masked before they are encoded).
package struct HARReportFormat: ReportFormat {
    package var displayName: String { "HAR" }
    /// Every exchange whole.
    package var resultDetail: ResultDetail { .everyStep }

    /// apitest's version, for `log.creator.version`.
    var toolVersion: String

    /// The format, naming apitest `toolVersion` as the creator.
    package init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    package func render(_ record: RunRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(HARDocument(record, toolVersion: toolVersion))
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            // Only non-finite numbers can fail to encode, and timings are finite.
            return "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"apitest\", \"version\": \"\"}, "
                + "\"entries\": []}}\n"
        }
    }
}
