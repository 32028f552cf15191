import APITestJSON
import APITestSuite
import APITestSuiteWriting
import Foundation
import Testing

@testable import APITestImport

/// `apitest import har`: the fixture written as Chromium's DevTools export writes HAR 1.2, imported into a suite
/// that the loader accepts, with the type filter, the secrets and the recorded statuses.
struct HARImporterTests {
    /// The environment the imported suite reads its secrets from.
    static let secrets = [
        "AUTHORIZATION": "a", "AUTHORIZATION_2": "b", "COOKIE_SESSION": "s", "COOKIE_THEME": "t", "ACCESS_TOKEN": "x",
        "X_API_KEY": "k",
    ]

    /// The fixture's archive.
    static func archive() throws -> HARArchive {
        try HARArchive.decode(PostmanFixtures.bytes("har/demo.har"), file: "demo.har")
    }

    @Test func theDefaultTypesKeepDocumentsXHRAndFetch() throws {
        let suite = HARImporter(archive: try Self.archive(), file: "demo.har").suite()
        #expect(
            suite.tests.map(\.name) == [
                "GET /html", "GET /api/users", "POST /api/users", "GET /bearer", "GET /cookies", "GET /redirect/1",
                "GET /echo/search", "POST /echo/login", "GET /api/users/404404", "GET /basic-auth/ann/s3cret",
            ])
        #expect(
            suite.tests.map(\.expect.status) == [[200], [200], [201], [200], [200], [302], [200], [200], [404], [200]])
        // The recorded redirect is expected as such.
        #expect(suite.tests[5].request.followRedirects == false)
        #expect(
            suite.allNotes.map(\.rendered) == [
                "entry 14: POST http://127.0.0.1:8080/echo/beacon got no response (blocked or cancelled): left out",
                "demo.har: 5 entries were left out by --include-types (font 1, image 1, preflight 1, script 1, stylesheet 1)",
            ])
        let (text, _) = try SuiteDocumentRendererTests.load(suite, environment: Self.secrets)
        #expect(text.contains("baseURL: \"{{ origin }}\""))
        #expect(text.contains("origin: http://127.0.0.1:8080"))
    }

    @Test func secretsBecomeEnvironmentVariablesListedAtTheTop() throws {
        let suite = HARImporter(archive: try Self.archive(), file: "demo.har").suite()
        let (text, _) = try SuiteDocumentRendererTests.load(suite, environment: Self.secrets)
        for value in ["eyJhbGciOiJIUzI1NiJ9", "5f2b8c1e9a", "9c1d7e4f", "k-8812-demo"] {
            #expect(!text.contains(value), "\(value) is written into the suite")
        }
        let users = suite.tests[1].request
        #expect(users.url == "/api/users?role=admin")
        #expect(
            users.headers.map { "\($0.name): \($0.value)" } == [
                "Accept-Language: en-US,en;q=0.9", "User-Agent: \(users.headers[1].value)",
                "sec-ch-ua: \"Not_A Brand\";v=\"8\", \"Chromium\";v=\"120\"", "sec-ch-ua-mobile: ?0",
                "sec-ch-ua-platform: \"Linux\"", "Accept: application/json", "Referer: http://127.0.0.1:8080/html",
                "Authorization: Bearer {{ env.AUTHORIZATION }}",
                "Cookie: session={{ env.COOKIE_SESSION }}; theme={{ env.COOKIE_THEME }}",
            ])
        #expect(suite.tests[6].request.url == "/echo/search?q=shoes&access_token={{ env.ACCESS_TOKEN }}&page=2")
        #expect(suite.tests[6].request.headers.contains(SuiteDocument.Header("X-Api-Key", "{{ env.X_API_KEY }}")))
        #expect(
            suite.header.suffix(7) == [
                "Secrets are read from the environment, not written here:",
                "  COOKIE_SESSION: cookie session, entries 1, 5, 7, 9",
                "  COOKIE_THEME: cookie theme, entries 1, 5, 7, 9",
                "  AUTHORIZATION: header Authorization, entries 5, 7, 8, 13",
                "  ACCESS_TOKEN: query parameter access_token, entry 11",
                "  X_API_KEY: header X-Api-Key, entry 11",
                "  AUTHORIZATION_2: header Authorization, entry 16",
            ])
        #expect(suite.environmentVariables.sorted() == Self.secrets.keys.sorted())
    }

    @Test func typesAreGuessedFromTheMediaTypeWithoutResourceType() {
        func entry(_ mime: String?) -> HAREntry {
            HAREntry(
                index: 0, resourceType: nil, method: "GET", url: "http://h/x", headers: [], cookies: [], postData: nil,
                status: 200, responseMimeType: mime)
        }
        let cases: [(String?, String)] = [
            ("text/html; charset=utf-8", "document"), ("application/json", "xhr"), ("application/problem+json", "xhr"),
            ("text/css", "stylesheet"), ("application/javascript", "script"), ("image/png", "image"),
            ("font/woff2", "font"), ("video/mp4", "media"), ("application/octet-stream", "other"), (nil, "xhr"),
        ]
        for (mime, type) in cases {
            #expect(HARImporter.resourceType(of: entry(mime)) == (type, true), "\(mime ?? "none")")
        }
        // A guessed `xhr` is also what `fetch` names.
        let fetchOnly = HARImporter(
            archive: HARArchive(entries: [entry("application/json")]), includeTypes: ["fetch"], file: "x.har")
        #expect(fetchOnly.suite().tests.count == 1)
        let imagesOnly = HARImporter(
            archive: HARArchive(entries: [entry("application/json")]), includeTypes: ["image"], file: "x.har")
        #expect(imagesOnly.suite().tests.isEmpty)
    }

    @Test func malformedArchivesAreLocatedErrors() {
        let cases: [(String, String)] = [
            ("{\"log\": {\"entries\": [}", "demo.har: line 1, column 22, at /log/entries/0: not valid JSON: "),
            ("[]", "demo.har: the top level: no 'log' object: not a HAR file"),
            ("{\"log\": {}}", "demo.har: log: no 'entries' list"),
            (
                "{\"log\": {\"entries\": [{\"request\": {\"url\": \"http://h/\"}}]}}",
                "demo.har: log.entries[0].request: a request without 'method'"
            ),
            (
                "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"http://h/\", \"headers\": {}}}]}}",
                "demo.har: log.entries[0].request.headers: expected a list, found an object"
            ),
            ("{\"log\": {\"entries\": [{}]}}", "demo.har: log.entries[0]: an entry without 'request'"),
        ]
        for (text, message) in cases {
            #expect(throws: JSONSourceError.self) { try HARArchive.decode(Array(text.utf8), file: "demo.har") }
            do {
                _ = try HARArchive.decode(Array(text.utf8), file: "demo.har")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }
}

extension HARImporterTests {
    @Test func repeatedHeadersAreJoinedAndPseudoHeadersLeftOut() {
        let entry = HAREntry(
            index: 0, resourceType: "fetch", method: "GET", url: "https://h.example/a",
            headers: [
                (":authority", "h.example"), (":path", "/a"), ("cookie", "a=1"), ("cookie", "b=2"),
                ("accept", "text/html"), ("accept", "application/json"), ("content-length", "0"),
            ], cookies: [], postData: nil, status: 200, responseMimeType: "application/json")
        let suite = HARImporter(archive: HARArchive(entries: [entry]), file: "h.har").suite()
        #expect(
            suite.tests[0].request.headers == [
                SuiteDocument.Header("cookie", "a={{ env.COOKIE_A }}; b={{ env.COOKIE_B }}"),
                SuiteDocument.Header("accept", "text/html, application/json"),
            ])
        #expect(suite.tests[0].request.url == "/a")
        #expect(suite.baseURL == "{{ origin }}")
    }
}
