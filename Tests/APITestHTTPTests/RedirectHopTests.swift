import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// The rules of redirects followed hop by hop (`SessionManager+Redirects.swift`): where a redirect goes, how the
/// method and body change, what another origin is, and what a hop to another origin leaves out.
@Suite struct RedirectHopTests {
    static func response(_ status: Int, location: String?) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let location { headers.add(name: "Location", value: location) }
        return HTTPResponse(
            statusCode: status, httpVersion: "HTTP/1.1", headers: headers, body: Data(),
            effectiveURL: "http://127.0.0.1/")
    }

    @Test func aRedirectResolvesItsLocationAgainstTheURLItAnswers() throws {
        let from = "http://127.0.0.1:8080/a/b?x=1"
        #expect(
            try SessionManager.redirectTarget(of: Self.response(302, location: "/c"), from: from)
                == "http://127.0.0.1:8080/c")
        #expect(
            try SessionManager.redirectTarget(of: Self.response(307, location: "d?y=2"), from: from)
                == "http://127.0.0.1:8080/a/d?y=2")
        #expect(
            try SessionManager.redirectTarget(of: Self.response(308, location: "https://other:9/e"), from: from)
                == "https://other:9/e")
        // Spaces and raw UTF-8 are percent-encoded, as libcurl does.
        #expect(
            try SessionManager.redirectTarget(of: Self.response(302, location: "/a b/é?q=x y"), from: from)
                == "http://127.0.0.1:8080/a%20b/%C3%A9?q=x%20y")
        // Not redirects: other statuses, or no Location.
        #expect(try SessionManager.redirectTarget(of: Self.response(200, location: "/c"), from: from) == nil)
        #expect(try SessionManager.redirectTarget(of: Self.response(304, location: "/c"), from: from) == nil)
        #expect(try SessionManager.redirectTarget(of: Self.response(301, location: nil), from: from) == nil)
        // Only http and https, as libcurl's own redirects.
        #expect(throws: HTTPError.self) {
            try SessionManager.redirectTarget(of: Self.response(302, location: "file:///etc/passwd"), from: from)
        }
    }

    @Test(arguments: [
        (301, "POST", "GET", false), (302, "POST", "GET", false), (303, "POST", "GET", false),
        (303, "PUT", "GET", false), (303, "HEAD", "HEAD", true), (301, "PUT", "PUT", true),
        (307, "POST", "POST", true), (308, "PATCH", "PATCH", true),
    ])
    func theMethodAndBodyChangeAsLibcurlChangesThem(status: Int, method: String, after: String, keepsBody: Bool) {
        var request = HTTPRequest(
            method: method, url: "http://127.0.0.1/", headers: ["Content-Type": "application/json", "X-A": "1"],
            body: .data(Data("{}".utf8)))
        SessionManager.rewriteMethod(of: &request, for: status)
        #expect(request.method == after)
        #expect((request.body != .none) == keepsBody)
        #expect(request.headers.contains("Content-Type") == keepsBody)
        #expect(request.headers["X-A"] == "1")
    }

    @Test func anOriginIsTheSchemeHostAndPort() {
        typealias Origin = SessionManager.Origin
        #expect(Origin(url: "http://Example.com/a") == Origin(url: "http://example.com:80/b?c"))
        #expect(Origin(url: "https://example.com/") == Origin(url: "https://example.com:443/x"))
        #expect(Origin(url: "http://example.com/") != Origin(url: "https://example.com/"))
        #expect(Origin(url: "http://example.com/") != Origin(url: "http://example.com:8080/"))
        #expect(Origin(url: "http://example.com/") != Origin(url: "http://example.org/"))
        #expect(Origin(url: "http://127.0.0.1:1/") != Origin(url: "http://127.0.0.1:2/"))
    }

    @Test func aHopToAnotherOriginLeavesOutTheBoundFieldsAndCredentials() {
        var request = HTTPRequest(
            url: "http://127.0.0.1/",
            headers: [
                "X-Api-Key": "k", "x-plain": "p", "Authorization": "Bearer t", "Cookie": "a=b",
                "Proxy-Authorization": "Basic cA==",
            ])
        request.originBoundHeaders = OriginBoundHeaders(["x-api-key"])
        request.authentication = .awsSigV4(
            .init(accessKey: "a", secretKey: "s", sessionToken: "t", region: "r", service: "s"))
        #expect(request.hasOriginBoundFields)
        #expect(request.authenticationHeaderLines.contains("x-amz-security-token: t"))
        request.leaveOriginBoundFields()
        #expect(request.headers.map(\.name) == ["x-plain", "Proxy-Authorization"])
        #expect(request.authentication == nil)
        #expect(request.authenticationHeaderLines.isEmpty)
        #expect(!request.hasOriginBoundFields)
    }

    @Test func onlyARequestWithBoundFieldsIsFollowedHopByHop() {
        var request = HTTPRequest(url: "http://127.0.0.1/", headers: ["Authorization": "Bearer t"])
        // Authorization and cookies are libcurl's to leave out: its own following does.
        #expect(!request.hasOriginBoundFields)
        request.authentication = .awsSigV4(.init(accessKey: "a", secretKey: "s", region: "r", service: "s"))
        #expect(!request.hasOriginBoundFields)
        request.originBoundHeaders.insert("X-Key")
        #expect(request.hasOriginBoundFields)
        #expect(request.originBoundHeaders.contains("x-key"))
    }
}
