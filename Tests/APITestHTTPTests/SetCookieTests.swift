import Testing

@testable import APITestHTTP

@Suite struct SetCookieTests {
    @Test func parsesNameValueAndAttributes() throws {
        let cookie = try #require(
            SetCookie("sid=abc=def; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Secure; HttpOnly"))
        #expect(cookie.name == "sid")
        #expect(cookie.value == "abc=def")
        #expect(cookie.attribute("path") == "/")
        #expect(cookie.attribute("Max-Age") == "0")
        #expect(cookie.attribute("expires") == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(cookie.attribute("Secure") == "")
        #expect(cookie.attribute("HttpOnly") == "")
        #expect(cookie.attribute("SameSite") == nil)
    }

    @Test func quotedValuesAndBadFields() {
        #expect(SetCookie("a=\"x y\"")?.value == "x y")
        #expect(SetCookie("a=")?.value == "")
        #expect(SetCookie("novalue") == nil)
        #expect(SetCookie("=x") == nil)
        let headers: HTTPHeaders = ["Set-Cookie": "a=1", "X": "y"]
        #expect(headers.setCookies.map(\.name) == ["a"])
    }
}
