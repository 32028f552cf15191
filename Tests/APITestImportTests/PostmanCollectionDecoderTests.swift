import APITestJSON
import APITestSuiteWriting
import Testing

@testable import APITestImport

/// The decoder reads what Postman, Newman and the collection SDK write (v2.0 and v2.1, and their lenient forms), and
/// every malformed file is an error at its place, never a crash.
struct PostmanCollectionDecoderTests {
    /// The collection in `text`.
    func decode(_ text: String) throws(JSONSourceError) -> PostmanCollection {
        try PostmanCollectionDecoder(file: "c.json").decode(Array(text.utf8))
    }

    /// The first request of a collection whose `item` list is `items`.
    func request(_ item: String) throws -> PostmanRequest {
        let collection = try decode("{\"info\": {\"name\": \"c\"}, \"item\": [\(item)]}")
        guard case .request(let entry) = collection.items.first else {
            Issue.record("no request")
            return PostmanRequest()
        }
        return entry.request
    }

    @Test func malformedFilesAreLocatedErrors() {
        let cases: [(String, String)] = [
            ("{\"item\": [", "c.json: line 1, column 11, at /item/0: not valid JSON: "),
            ("[1]", "c.json: the top level: expected a Postman collection object"),
            ("{\"info\": {}}", "c.json: the top level: no 'item' list: not a Postman collection v2.0 or v2.1"),
            ("{\"requests\": [], \"order\": []}", "c.json: the top level: this is a Postman collection v1"),
            ("{\"item\": {}}", "c.json: item: expected a list, found an object"),
            ("{\"item\": [3]}", "c.json: item[0]: expected a folder or request object"),
            ("{\"item\": [{\"name\": \"x\"}]}", "c.json: item[0]: an item without 'item' (a folder) or 'request'"),
            (
                "{\"item\": [{\"item\": [{\"request\": {\"url\": \"u\", \"header\": [1]}}]}]}",
                "c.json: item[0].item[0].request.header[0]: expected an object with 'key' and 'value'"
            ),
            (
                "{\"item\": [{\"request\": {\"url\": \"u\", \"body\": {\"mode\": \"soap\"}}}]}",
                "c.json: item[0].request.body: unknown body mode 'soap'"
            ),
            (
                "{\"item\": [{\"request\": {\"url\": []}}]}",
                "c.json: item[0].request.url: expected a URL string or object"
            ),
            ("{\"item\": [], \"auth\": {\"basic\": []}}", "c.json: auth: an auth block without 'type'"),
            ("{\"item\": [], \"variable\": [\"x\"]}", "c.json: variable[0]: expected a variable object"),
        ]
        for (text, message) in cases {
            do {
                _ = try decode(text)
                Issue.record("\(text) decoded")
            } catch {
                #expect(error.description.hasPrefix(message), "\(error.description)")
            }
        }
    }

    @Test func urlsAsStringsObjectsAndParts() throws {
        #expect(try request("{\"request\": \"https://h/a\"}").url == "https://h/a")
        #expect(try request("{\"request\": {\"url\": \"https://h/b\"}}").url == "https://h/b")
        let parts = try request(
            """
            {"request": {"url": {"protocol": "https", "host": ["api", "example", "com"], "port": "8443",
             "path": ["users", ":id", "posts"], "query": [{"key": "a", "value": "1"}, {"key": "b", "value": "2",
             "disabled": true}], "variable": [{"key": "id", "value": "42"}]}}}
            """)
        #expect(parts.url == "https://api.example.com:8443/users/42/posts?a=1")
        // Only path segments are path variables: `:id` in the query stays.
        let raw = try request(
            "{\"request\": {\"url\": {\"raw\": \"{{base}}/u/:id?x=:id\", \"variable\": [{\"key\": \"id\", \"value\": \"7\"}]}}}"
        )
        #expect(raw.url == "{{base}}/u/7?x=:id")
    }

    @Test func headersBodiesAndDisabledEntries() throws {
        let request = try request(
            """
            {"request": {"method": "post", "url": "u", "header": "Accept: application/json\\nX-A: 1",
             "body": {"mode": "formdata", "formdata": [{"key": "t", "value": "v", "type": "text"},
             {"key": "f", "type": "file", "src": ["/a.png", "/b.png"]}, {"key": "off", "value": "x", "disabled": true}]}}}
            """)
        #expect(request.method == "POST")
        #expect(request.headers.map { "\($0.name)=\($0.value)" } == ["Accept=application/json", "X-A=1"])
        guard case .formdata(let parts) = request.body else {
            Issue.record("not a form")
            return
        }
        #expect(
            parts == [
                PostmanFormPart(name: "t", value: "v", isFile: false),
                PostmanFormPart(name: "f", value: "/a.png", isFile: true),
                PostmanFormPart(name: "f", value: "/b.png", isFile: true),
            ])
        let graphql = try self.request(
            "{\"request\": {\"url\": \"u\", \"body\": {\"mode\": \"graphql\", \"graphql\": {\"query\": \"{ a }\", \"variables\": {\"x\": 1}}}}}"
        )
        guard case .graphql(let query, let variables) = graphql.body else {
            Issue.record("not graphql")
            return
        }
        #expect(query == "{ a }" && variables == "{\"x\":1}")
        #expect(
            try self.request("{\"request\": {\"url\": \"u\", \"body\": {\"mode\": \"raw\", \"raw\": \"\"}}}").body
                == nil)
        #expect(
            try self.request(
                "{\"request\": {\"url\": \"u\", \"body\": {\"mode\": \"raw\", \"raw\": \"x\", \"disabled\": true}}}"
            )
            .body == nil)
    }

    @Test func authInBothFormatsAndEventsAsListsOrObjects() throws {
        let collection = try decode(
            """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "auth": {"type": "basic", "basic": {"username": "u", "password": "p"}},
             "event": {"listen": "test", "script": {"exec": "a\\nb"}},
             "item": [{"name": "f", "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "t"}]},
                       "item": [{"name": "r", "request": "u", "event": [{"listen": "prerequest", "script": {"exec": ["x"]}},
                                 {"listen": "test", "disabled": true, "script": {"exec": ["y"]}}]}]}]}
            """)
        #expect(collection.schemaVersion == "v2.0.0")
        #expect(collection.auth == PostmanAuth(type: "basic", parameters: ["username": "u", "password": "p"]))
        #expect(collection.events == [PostmanEvent(listen: "test", lines: ["a", "b"])])
        guard case .folder(let folder) = collection.items[0], case .request(let entry) = folder.items[0] else {
            Issue.record("not a folder with a request")
            return
        }
        #expect(folder.auth == PostmanAuth(type: "bearer", parameters: ["token": "t"]))
        #expect(entry.events == [PostmanEvent(listen: "prerequest", lines: ["x"])])
    }

    @Test func environmentsAndGlobals() throws {
        let environment = try PostmanEnvironment.decode(
            Array(
                """
                {"name": "staging", "values": [{"key": "a", "value": "1", "enabled": true},
                 {"key": "b", "value": "2", "enabled": false}, {"key": "s", "value": "x", "type": "secret"}]}
                """.utf8), file: "e.json")
        #expect(environment.name == "staging")
        #expect(
            environment.variables == [
                PostmanVariable(key: "a", value: "1"), PostmanVariable(key: "s", value: "x", isSecret: true),
            ])
        let globals = try PostmanEnvironment.decode(Array("[{\"key\": \"g\", \"value\": 3}]".utf8), file: "g.json")
        #expect(globals.variables == [PostmanVariable(key: "g", value: "3")])
        #expect(throws: JSONSourceError.self) {
            try PostmanEnvironment.decode(Array("{\"item\": []}".utf8), file: "e.json")
        }
    }
}
