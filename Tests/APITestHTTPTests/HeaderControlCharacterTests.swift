import Foundation
import Testing

@testable import APITestHTTP

/// The wire check refuses every control character but the horizontal tab in a header value, whatever its source
/// (a templated value rendered at send time), as it refuses CR, LF and NUL; other fields keep their own rules.
@Suite struct HeaderControlCharacterTests {
    func finding(_ request: HTTPRequest) -> HTTPError? {
        do {
            try request.checkWireFields()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [UInt8(0x01), 0x08, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F])
    func controlCharactersInAHeaderValueAreNotSent(_ byte: UInt8) {
        let value = "a" + String(UnicodeScalar(byte)) + "b"
        let found = finding(HTTPRequest(url: "http://h/", headers: ["X-Token": value]))
        #expect(
            found?.forbiddenCharacter
                == ForbiddenCharacter(field: .headerValue(name: "X-Token"), character: .control(byte)))
        let hex = String(byte, radix: 16, uppercase: true)
        #expect(
            found?.message.contains(
                "the value of header 'X-Token' contains the control character U+"
                    + String(repeating: "0", count: 4 - hex.count) + hex) == true)

        var form = MultipartFormData()
        form.append(value: "v", name: "f", headers: ["X-Part": value])
        #expect(
            finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form)))?.forbiddenCharacter
                == ForbiddenCharacter(
                    field: .multipartHeaderValue(part: "f", name: "X-Part"), character: .control(byte)))
    }

    @Test func aTabPassesAndOtherFieldsKeepTheirRules() {
        #expect(finding(HTTPRequest(url: "http://h/", headers: ["X-Token": "a\tb"])) == nil)
        // A vertical tab in a multipart name is sent inside quotes in the part's own headers: not a header value.
        var form = MultipartFormData()
        form.append(value: "v", name: "a\u{0B}b")
        #expect(finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form))) == nil)
    }
}
