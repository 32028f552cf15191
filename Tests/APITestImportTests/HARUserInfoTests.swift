import APITestSuite
import APITestSuiteWriting
import Testing

@testable import APITestImport

/// `import har`: a URL recorded with a password in its user information (`https://ann:pw@host/`) keeps the password
/// out of the suite, in every URL and in the `origin` variable: it is read from the environment (`URL_PASSWORD`),
/// listed at the top with the other secrets.
struct HARUserInfoTests {
    @Test func aPasswordInTheOriginIsReadFromTheEnvironment() throws {
        let entry = { (path: String) in
            """
            {"request": {"method": "GET", "url": "http://ann:url-pw-1@127.0.0.1:1\(path)", "headers": []},
             "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json"}}}
            """
        }
        let har = #"{"log": {"entries": ["# + entry("/a") + "," + entry("/b?q=1") + "]}}"
        let archive = try HARArchive.decode(Array(har.utf8), file: "t.har")
        let suite = HARImporter(archive: archive, file: "t.har").suite()
        let (text, loaded) = try SuiteDocumentRendererTests.load(suite, environment: ["URL_PASSWORD": "url-pw-1"])
        #expect(!text.contains("url-pw-1"), "\(text)")
        #expect(text.contains("origin: \"http://ann:{{ env.URL_PASSWORD }}@127.0.0.1:1\""), "\(text)")
        #expect(suite.tests.map(\.request.url) == ["/a", "/b?q=1"])
        #expect(text.contains("URL_PASSWORD: password of the URL user ann@127.0.0.1:1, entries 1, 2"), "\(text)")
        #expect(loaded.tests.count == 2)
    }
}
