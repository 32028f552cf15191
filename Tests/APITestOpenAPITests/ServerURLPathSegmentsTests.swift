import Testing

@testable import APITestOpenAPI

/// `ServerURL.pathSegments(ofURL:)`: the segments of a URL's path and whether it holds a `%`, on URLs with hosts,
/// queries, fragments, empty segments, a scheme without `//` and non-ASCII text.
struct ServerURLPathSegmentsTests {
    @Test(arguments: [
        ("", [""], false), ("/", [""], false), ("http://h", [""], false),
        ("http://h:8080/v2/pets?x=1#f", ["v2", "pets"], false), ("//host/pets", ["pets"], false),
        ("/pets?x=/a/b", ["pets"], false), ("/a//b/", ["a", "", "b", ""], false),
        ("/items/%2Fx?y=%20", ["items", "%2Fx"], true), ("/a#/b/c", ["a"], false), ("pets/1", ["pets", "1"], false),
        ("http://h/ä/ö%C3%A9/", ["ä", "ö%C3%A9", ""], true), ("/x?#", ["x"], false), ("//h?/a", [""], false),
        ("http://h#x?/y", [""], false), ("mailto:a/b", ["a", "b"], false), ("/%", ["%"], true),
    ])
    func cutsThePathsSegments(url: String, segments: [String], hasPercent: Bool) {
        let found = ServerURL.pathSegments(ofURL: url)
        #expect(found.segments.map(String.init) == segments, "\(url)")
        #expect(found.hasPercent == hasPercent, "\(url)")
    }
}
