import APITestJSON
import Foundation
import Testing

@testable import APITestHTTP

@Suite struct QueryStringSerializerTests {
    @Test func nestedParametersFollowAFNetworking() {
        let parameters: JSONValue = ["ids": [1, 2], "filter": ["role": "admin"]]
        #expect(QueryStringSerializer.string(parameters) == "filter[role]=admin&ids[]=1&ids[]=2")
    }

    @Test func keysAreSortedAtEveryLevel() {
        let parameters: JSONValue = ["z": 1, "a": ["y": 2, "b": 3], "m": "x"]
        #expect(QueryStringSerializer.string(parameters) == "a[b]=3&a[y]=2&m=x&z=1")
    }

    @Test func deepNestingAndArraysOfObjects() {
        let parameters: JSONValue = ["a": [["b": 1], ["b": 2]], "c": ["d": ["e": "f"]]]
        #expect(QueryStringSerializer.string(parameters) == "a[][b]=1&a[][b]=2&c[d][e]=f")
    }

    @Test func rfc3986EscapingOfNamesAndValues() {
        let parameters: JSONValue = ["q": "a b&c=d/é~._-", "k[x]": "?"]
        #expect(QueryStringSerializer.string(parameters) == "k%5Bx%5D=%3F&q=a%20b%26c%3Dd%2F%C3%A9~._-")
    }

    @Test func scalarsNullAndBooleans() {
        let parameters: JSONValue = ["n": nil, "t": true, "f": false, "d": 1.5, "i": 2.0]
        #expect(QueryStringSerializer.string(parameters) == "d=1.5&f=false&i=2&n&t=true")
    }

    @Test func emptyContainersProduceNothing() {
        #expect(QueryStringSerializer.string(["a": [], "b": [:]]) == "")
    }
}

@Suite struct RequestSerializerTests {
    let serializer = RequestSerializer(
        baseURL: "http://127.0.0.1:8080/api", defaultHeaders: ["User-Agent": "apitest/1.0", "Accept": "*/*"])

    @Test func resolvesURLAndAppendsQuery() throws {
        let request = try serializer.request(url: "users?x=1", query: ["page": 2, "filter": ["role": "admin"]])
        #expect(request.url == "http://127.0.0.1:8080/api/users?x=1&filter[role]=admin&page=2")
        #expect(request.method == "GET")
        #expect(request.body == .none)
    }

    @Test func jsonBodySetsContentType() throws {
        let request = try serializer.request(method: "post", url: "users", body: .json(["name": "carol", "n": 1]))
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.body == .data(Data(#"{"name":"carol","n":1}"#.utf8)))
    }

    @Test func formBodyIsURLEncoded() throws {
        let request = try serializer.request(
            method: "POST", url: "login", body: .form(["user": "a b", "tags": ["x", "y"]]))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.body == .data(Data("tags[]=x&tags[]=y&user=a%20b".utf8)))
    }

    @Test func rawAndFileBodies() throws {
        let raw = try serializer.request(
            method: "PUT", url: "x", body: .raw(Data("hi".utf8), contentType: "text/plain"))
        #expect(raw.body == .data(Data("hi".utf8)))
        #expect(raw.headers["Content-Type"] == "text/plain")
        let file = try serializer.request(method: "PUT", url: "x", body: .file(path: "/tmp/f", contentType: nil))
        #expect(file.body == .file(path: "/tmp/f"))
        #expect(file.headers["Content-Type"] == nil)
    }

    @Test func explicitHeadersWinOverDefaultsAndBodyType() throws {
        let request = try serializer.request(
            method: "POST", url: "x",
            headers: ["accept": "application/json", "Content-Type": "application/vnd.x+json"],
            body: .json([:]))
        #expect(request.headers.values(for: "Accept") == ["application/json"])
        #expect(request.headers["Content-Type"] == "application/vnd.x+json")
        #expect(request.headers["User-Agent"] == "apitest/1.0")
    }

    @Test func repeatedRequestHeadersAreKept() throws {
        let request = try serializer.request(url: "x", headers: HTTPHeaders([("X-A", "1"), ("X-A", "2")]))
        #expect(request.headers.values(for: "x-a") == ["1", "2"])
    }

    @Test func basicAuthorization() throws {
        let request = try serializer.request(url: "x", basicAuth: ("aladdin", "opensesame"))
        #expect(request.headers["Authorization"] == "Basic YWxhZGRpbjpvcGVuc2VzYW1l")
        let utf8 = RequestSerializer.basicAuthorization("jöe", "pässword")
        #expect(utf8 == "Basic " + Data("jöe:pässword".utf8).base64EncodedString())
        let explicit = try serializer.request(url: "x", headers: ["Authorization": "Bearer t"], basicAuth: ("a", "b"))
        #expect(explicit.headers["Authorization"] == "Bearer t")
    }

    @Test func relativeURLWithoutBaseFails() {
        let bare = RequestSerializer()
        #expect(throws: HTTPError.self) { try bare.request(url: "users") }
    }
}

@Suite struct HTTPHeadersTests {
    @Test func caseInsensitiveLookupKeepsOrderAndRepeats() {
        var headers = HTTPHeaders([("Set-Cookie", "a=1"), ("content-type", "x"), ("SET-COOKIE", "b=2")])
        #expect(headers["Content-Type"] == "x")
        #expect(headers.values(for: "set-cookie") == ["a=1", "b=2"])
        headers.set(name: "Set-Cookie", value: "c=3")
        #expect(headers.map(\.name) == ["Set-Cookie", "content-type"])
        headers.remove(name: "CONTENT-TYPE")
        #expect(headers.count == 1)
        #expect(!headers.contains("content-type"))
    }

    /// A method already in capitals is sent as it is; any other is upper-cased as `String.uppercased()` does.
    @Test func upperCasesTheMethodAsUppercasedDoes() throws {
        let serializer = RequestSerializer(baseURL: "https://api.example.com/")
        let methods = [
            "GET", "get", "Get", "PATCH", "", "M-SEARCH", "m-search", "ß", "é", "GEt1", "PRO\u{301}PFIND", "x",
        ]
        for method in methods {
            #expect(RequestSerializer.uppercased(method) == method.uppercased(), "\(method)")
            #expect(try serializer.request(method: method, url: "x").method == method.uppercased(), "\(method)")
        }
        // Bridged or slice-made strings without contiguous UTF-8 take the general path.
        let sliced = String("xget".dropFirst())
        #expect(RequestSerializer.uppercased(sliced) == "GET")
    }
}
