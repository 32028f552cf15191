import Testing

@testable import APITestImport

/// An imported JSON file (a HAR archive, a Postman collection) that is not valid JSON is located by line, column
/// and the JSON Pointer of the member the error is in: such files are often one line.
struct ImportJSONPointerTests {
    @Test func aSyntaxErrorNamesItsPointer() {
        let text = #"{"log":{"entries":[{"request":{"url":"http://a/"}},{"request":{"url":"http://a/b","method":}}]}}"#
        do {
            _ = try JSONSourceNode.parse(Array(text.utf8), file: "api.har")
            Issue.record("parsed")
        } catch {
            #expect(error.location.hasPrefix("line 1, column "))
            #expect(error.location.hasSuffix(", at /log/entries/1/request/method"), "\(error.location)")
            #expect(error.description.hasPrefix("api.har: line 1, column "))
        }
    }
}
