import Testing

@testable import APITestOpenAPI

/// `ServerURL.pathSegments(ofURL:)` (one pass over a URL's bytes) cuts the same segments and sees the same `%` as
/// `segments(of:)` of `split(_:)`'s path, on URLs with hosts, queries, fragments, empty segments and non-ASCII text.
struct ServerURLPathSegmentsTests {
    @Test func onePassCutsWhatSplitAndSegmentsCut() {
        let urls = [
            "", "/", "//", "http://h", "http://h/", "http://h:8080/v2/pets?x=1#f", "//host/pets", "/pets?x=/a/b",
            "/a//b/", "/items/%2Fx?y=%20", "/a#/b/c", "pets/1", "http://h/ä/ö%C3%A9/", "/x?#", "/a/../b/./c",
            "https://user@h/p;q/r?s#t", "/%", "//h?/a", "http://h#x?/y", "/é/", "mailto:a/b",
        ]
        for url in urls {
            let path = ServerURL.split(url).path
            let expected = ServerURL.segments(of: path)
            let (segments, hasPercent) = ServerURL.pathSegments(ofURL: url)
            #expect(segments.map(String.init) == expected.map(String.init), "\(url)")
            #expect(hasPercent == path.contains("%"), "\(url)")
        }
    }
}
