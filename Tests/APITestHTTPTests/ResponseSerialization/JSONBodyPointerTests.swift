import Foundation
import Testing

@testable import APITestHTTP

/// A JSON response body that does not parse says where as the other JSON readers do: beside the position, the JSON
/// Pointer of the member or element the error is in, shown escaped (a minified body's every position is on line 1).
/// The old message was `json decoder: line 1, column 50 (byte 49): invalid literal` and nothing more.
@Suite struct JSONBodyPointerTests {
    static func error(_ text: String) throws -> ResponseSerializationError {
        try #require(
            ResponseFixtures.decodeError(
                JSONResponseSerializer(), ResponseFixtures.response(text, contentType: "application/json")))
    }

    @Test func aMinifiedBodyNamesThePointer() throws {
        let error = try Self.error(#"{"items":[{"id":1},{"id":2,"a/b~":{"ok":tru}}]}"#)
        #expect(error.pointer == "/items/1/a~1b~0/ok")
        #expect(
            error.description.hasPrefix(
                "json decoder: line 1, column \(error.column ?? 0) (byte \(error.byteOffset ?? 0)), at /items/1/a~1b~0/ok: "
            ), "\(error.description)")
    }

    @Test func aControlCharacterInAMemberNameIsShownEscaped() throws {
        let error = try Self.error("{\"x\\u001b[31m\": nope}")
        #expect(error.description.contains(#", at /x\u{1B}[31m: "#), "\(error.description)")
        #expect(!error.description.contains("\u{1B}"), "\(error.description)")
    }

    @Test func anErrorAtTheTopHasNoPointer() throws {
        let error = try Self.error(#"{"a": 1 "b": 2}"#)
        #expect(!error.description.contains(", at "), "\(error.description)")
    }
}
