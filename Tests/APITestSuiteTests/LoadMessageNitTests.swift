import Testing

@testable import APITestSuite

/// Loose ends of issue 37's messages: `auth: ~` (and `null`) says that `none` switches authentication off, `vars:`
/// in a test is offered `variables` (another name of it, KeyAlias) with where it goes rather than `tags` (spelled
/// alike), and a blank literal `url: " "` is the located error `url: ""` is rather than silently the base URL. The
/// old code said "'auth' needs one of 'basic', ...", "did you mean 'tags'?" and loaded `url: " "`.
@Suite struct LoadMessageNitTests {
    static func suite(test: String) -> String {
        """
        name: nits
        baseURL: http://127.0.0.1:1/api/
        defaults:
          auth: {bearer: token}
        tests:
          - name: one
        \(test)
        """
    }

    @Test func aNullAuthSaysNoneSwitchesItOff() {
        for value in ["~", "null", "{}"] {
            let found = errors(Self.suite(test: "    request: {url: x, auth: \(value)}"))
            #expect(found.count == 1, "\(value): \(found)")
            #expect(found.first?.contains("or 'none' (or false) for no authentication") == true, "\(value): \(found)")
        }
    }

    @Test func varsInATestIsOfferedVariables() {
        let found = errors(Self.suite(test: "    vars: {a: 1}\n    request: {url: x}"))
        #expect(
            found.first?.contains(
                "unknown key 'vars' in test; did you mean 'variables'? It belongs to the suite's top level") == true,
            "\(found)")
        // An alias of a key the construct has is still offered that key.
        let statusCode = errors(Self.suite(test: "    request: {url: x}\n    expect: {statusCode: 200}"))
        #expect(statusCode.first?.contains("did you mean 'status'?") == true, "\(statusCode)")
    }

    @Test func aBlankURLIsAnErrorAsAnEmptyOneIs() {
        let empty = errors(Self.suite(test: "    request: {url: \"\"}"))
        #expect(empty.first?.contains("'url' is empty") == true, "\(empty)")
        for blank in ["\" \"", "\"\\t \""] {
            let found = errors(Self.suite(test: "    request: {url: \(blank)}"))
            #expect(found.count == 1, "\(blank): \(found)")
            #expect(found.first?.contains("'url' is blank") == true, "\(blank): \(found)")
        }
    }
}
