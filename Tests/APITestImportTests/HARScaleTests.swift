import APITestSuiteWriting
import APITestTestSupport
import Foundation
import Testing

@testable import APITestImport

/// `import har` is linear in the number of entries: 5,000 entries, each with its own credential and all of one name
/// (`GET /api/orders`), import and render in a few seconds. Before, each new secret was looked up in the list of
/// those met, and its name numbered from 2 against that list (1,000 entries 1.7 s, 3,000 over 30 s, 5,000 over
/// 100 s), and test names were numbered from 2 the same way.
struct HARScaleTests {
    /// An archive of `count` entries with distinct bearer tokens, API keys and cookies.
    static func archive(_ count: Int) -> HARArchive {
        HARArchive(
            entries: (0..<count).map { index in
                HAREntry(
                    index: index, resourceType: "xhr", method: "GET",
                    url: "https://api.example.com/api/orders?access_token=t\(index)",
                    headers: [
                        (name: "Authorization", value: "Bearer token-\(index)"),
                        (name: "X-Api-Key", value: "key-\(index)"), (name: "Cookie", value: "session=s\(index)"),
                    ], cookies: [], postData: nil, status: 200, responseMimeType: "application/json")
            })
    }

    @Test func fiveThousandEntriesWithTheirOwnSecretsImportInLinearTime() throws {
        let cpuStart = threadCPUTime()
        let suite = HARImporter(archive: Self.archive(5000), file: "big.har").suite()
        let text = SuiteDocumentRenderer(suite: suite).render()
        // What `import -o` lists for the user to set: searched in the rendered suite, once.
        let variables = suite.environmentVariables
        // Measured in this thread's CPU time, which a busy CI machine does not inflate.
        let cpu = threadCPUTime() - cpuStart
        #expect(suite.tests.count == 5000)
        #expect(suite.tests[4999].request.headers.first?.value == "Bearer {{ env.AUTHORIZATION_5000 }}")
        #expect(suite.tests[4999].request.url == "/api/orders?access_token={{ env.ACCESS_TOKEN_5000 }}")
        #expect(text.contains("- name: GET /api/orders (5000)\n"))
        #expect(variables.count == 20_000)
        // Linear work takes well under a second in a release build; the old code took minutes.
        #expect(cpu < 30, "\(cpu) s of CPU")
    }

    @Test func numberedNamesAreTheOnesBefore() {
        var secrets = HARSecrets()
        var names: [String] = []
        for value in ["a", "b", "a", "c"] {
            names.append(
                secrets.placeholder(for: value, base: "Authorization", source: "header", entry: names.count + 1))
        }
        // A stem that is taken is numbered on from where it was, past names taken by other stems.
        names.append(secrets.placeholder(for: "x", base: "Authorization_3", source: "other", entry: 5))
        names.append(secrets.placeholder(for: "d", base: "Authorization", source: "header", entry: 6))
        #expect(
            names == [
                "{{ env.AUTHORIZATION }}", "{{ env.AUTHORIZATION_2 }}", "{{ env.AUTHORIZATION }}",
                "{{ env.AUTHORIZATION_3 }}", "{{ env.AUTHORIZATION_3_2 }}", "{{ env.AUTHORIZATION_4 }}",
            ])
        #expect(secrets.variables.map(\.entries) == [[1, 3], [2], [4], [5], [6]])
    }
}
