import Testing

@testable import APITestJSON

/// A JSON syntax error carries the JSON Pointer (RFC 6901) of the member or element it is in, beside its line and
/// column: in a minified document every position is on line 1, and the pointer says where column 3611 is.
struct JSONParseErrorPointerTests {
    /// The error of parsing `text` (which must not parse), by both parsers: the value parser and the tape.
    static func errors(_ text: String) throws -> [JSONParseError] {
        var errors: [JSONParseError] = []
        do throws(JSONParseError) {
            _ = try JSONParser.parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            errors.append(error)
        }
        do throws(JSONParseError) {
            _ = try JSONTape(parsing: Array(text.utf8))
            Issue.record("parsed as a tape: \(text)")
        } catch {
            errors.append(error)
        }
        return errors
    }

    @Test func aMinifiedDocumentsErrorIsNamedByItsPointer() throws {
        // Many operations before the one that is wrong, all on line 1; a key with `/` and `~`, one with a control
        // character.
        var paths: [String] = []
        for index in 0..<60 {
            paths.append(
                #""/things\#(index)":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":"#
                    + #"{"schema":{"type":"object"}}}}}}}"#)
        }
        paths.append(#""/users/{id}":{"get":{"parameters":[{"name":"id"},{"name":"x~y/z","in":query}]}}"#)
        let text = #"{"openapi":"3.1.0","paths":{"# + paths.joined(separator: ",") + "}}"
        for error in try Self.errors(text) {
            #expect(error.line == 1)
            #expect(error.column > 3_000)
            #expect(error.pointer == ["paths", "/users/{id}", "get", "parameters", "1", "in"])
            #expect(error.pointerText == "/paths/~1users~1{id}/get/parameters/1/in")
        }
    }

    @Test func keysWithSlashAndTildeAreEscaped() throws {
        for error in try Self.errors(#"{"a/b":{"c~d":{"~1":[1,2,{"/":tru}]}}}"#) {
            #expect(error.pointer == ["a/b", "c~d", "~1", "2", "/"])
            #expect(error.pointerText == "/a~1b/c~0d/~01/2/~1")
        }
    }

    @Test func escapedKeysAreTheirText() throws {
        // The key as the document means it: escapes decoded (a surrogate pair, a tab), as JSON Pointer names members.
        for error in try Self.errors(#"{"\u00e9\ud83d\ude00\t\"":[0,1,x]}"#) {
            #expect(error.pointer == ["é😀\t\"", "2"])
        }
    }

    @Test func anErrorBetweenMembersNamesTheContainer() throws {
        let cases: [(text: String, pointer: [String])] = [
            // A trailing comma: no member is being read.
            (#"{"a":{"b":1,}}"#, ["a"]),
            (#"{"a":[1,2,]}"#, ["a", "2"]),
            // A missing comma after a complete member: the object it is in.
            (#"{"a":{"b":1 "c":2}}"#, ["a"]),
            (#"{"a":[1 2]}"#, ["a"]),
            // A key that does not end: the object it is in.
            (#"{"a":{"b"#, ["a"]),
            // An unterminated string value: its member.
            (#"{"a":{"b":"xyz"#, ["a", "b"]),
            // A missing colon: the member whose key was read.
            (#"{"a":{"b" 1}}"#, ["a", "b"]),
            // A bad number and a bad escape inside a value: the member.
            (#"{"a":{"n":01}}"#, ["a", "n"]),
            (#"{"a":["ok","b\q"]}"#, ["a", "1"]),
            // At the top: no pointer.
            ("", []),
            ("[1,2] 3", []),
            ("nul", []),
            // After a closed container, the next member of the one around it.
            (#"{"a":{"b":[1]},"c":{"d":[1,{}],"e":-}}"#, ["c", "e"]),
        ]
        for (text, pointer) in cases {
            for error in try Self.errors(text) {
                #expect(error.pointer == pointer, "\(text): \(error)")
            }
        }
    }

    @Test func thePointerIsAtAnyOffset() {
        // For an error another reader found (libyaml reading a JSON document) at a byte offset.
        let text = Array(#"{"info":{"title":"é","x":[true,{"k":null}]}}"#.utf8)
        let offset = (0..<text.count).first { Array(text[$0...].prefix(4)) == Array("null".utf8) } ?? 0
        #expect(JSONParser.pointer(in: text, at: offset) == ["info", "x", "1", "k"])
        #expect(JSONParser.pointer(in: text, at: 0) == [])
        #expect(JSONParser.pointer(in: text, at: text.count + 10) == [])
    }

    @Test func theDescriptionIsUnchanged() throws {
        // Readers that render the error themselves show the pointer (JSONParseError.locatedDescription in
        // APITestJSONSchema escapes it for the display); the description stays the parser's.
        let error = try #require(try Self.errors(#"{"a":[x]}"#).first)
        #expect(error.description == "line 1, column 7: expected a value, found 'x'")
        #expect(error.pointer == ["a", "0"])
    }
}
