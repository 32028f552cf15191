import APITestSupport
import Foundation
import Testing

@testable import APITestHTTP

/// `HTTPRequest.checkWireFields()`: CR, LF and NUL in any field that goes on the wire as text refuse the request.
@Suite struct WireCheckTests {
    static let characters: [(String, ForbiddenCharacter.Character)] = [
        ("\r", .carriageReturn), ("\n", .lineFeed), ("\0", .nul),
    ]

    /// The finding of `request`'s check, or `nil` when it passes.
    func finding(_ request: HTTPRequest) -> HTTPError? {
        do {
            try request.checkWireFields()
            return nil
        } catch {
            return error
        }
    }

    @Test func aCleanRequestPasses() throws {
        var form = MultipartFormData()
        form.append(value: "v", name: "caption", headers: ["X-Part": "1"])
        let request = HTTPRequest(
            method: "POST", url: "http://127.0.0.1/a?b=c", headers: ["X-Token": "abc def\t!", "Accept": "*/*"],
            body: .multipart(form))
        #expect(finding(request) == nil)
    }

    @Test(arguments: [0, 1, 2]) func headerValuesNamesAndMethodAreChecked(_ which: Int) throws {
        let (text, character) = Self.characters[which]
        let value = finding(HTTPRequest(url: "http://h/", headers: ["X-Token": "abc\(text)X-Evil: 1"]))
        #expect(value?.reason == .forbiddenCharacter)
        #expect(
            value?.forbiddenCharacter == ForbiddenCharacter(field: .headerValue(name: "X-Token"), character: character))
        #expect(value?.message.contains("the value of header 'X-Token' contains") == true)

        let name = finding(HTTPRequest(url: "http://h/", headers: ["X-A\(text)B": "1"]))
        #expect(name?.forbiddenCharacter == ForbiddenCharacter(field: .headerName("X-A\(text)B"), character: character))
        #expect(name?.message.contains("\(text)") == false, "the name is shown escaped")

        let method = finding(HTTPRequest(method: "GET\(text)DELETE", url: "http://h/"))
        #expect(method?.forbiddenCharacter == ForbiddenCharacter(field: .method, character: character))
        #expect(method?.message.hasPrefix("the request was not sent: the method contains") == true)

        let url = finding(HTTPRequest(url: "http://h/a\(text)b"))
        #expect(url?.forbiddenCharacter == ForbiddenCharacter(field: .url, character: character))
    }

    @Test func laterHeadersAreCheckedToo() {
        let error = finding(HTTPRequest(url: "http://h/", headers: ["A": "1", "B": "2", "Cookie": "s=1\r\n"]))
        #expect(error?.forbiddenCharacter?.field == .headerValue(name: "Cookie"))
        #expect(error?.forbiddenCharacter?.character == .carriageReturn)
    }

    @Test func acceptEncodingIsChecked() {
        var request = HTTPRequest(url: "http://h/")
        request.acceptEncoding = "gzip\r\nX: 1"
        #expect(finding(request)?.forbiddenCharacter?.field == .acceptEncoding)
    }

    @Test func multipartFieldsAreChecked() {
        var form = MultipartFormData()
        form.append(data: Data(), name: "f", filename: "a.txt", contentType: "text/plain\r\nX-Evil: 1")
        #expect(
            finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form)))?.forbiddenCharacter?.field
                == .multipartContentType(part: "f"))

        form = MultipartFormData()
        form.append(value: "v", name: "f", headers: ["X-Part": "1\n2"])
        #expect(
            finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form)))?.forbiddenCharacter?.field
                == .multipartHeaderValue(part: "f", name: "X-Part"))

        // Names and filenames have CR and LF percent-encoded; a NUL would go raw, so it is refused.
        form = MultipartFormData()
        form.append(data: Data(), name: "a\r\nb", filename: "x\r\ny.txt")
        #expect(finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form))) == nil)
        form = MultipartFormData()
        form.append(data: Data(), name: "f", filename: "x\0y.txt")
        #expect(
            finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form)))?.forbiddenCharacter
                == ForbiddenCharacter(field: .multipartFilename(part: "f"), character: .nul))
        form = MultipartFormData()
        form.append(value: "v", name: "a\0b")
        #expect(
            finding(HTTPRequest(method: "POST", url: "http://h/", body: .multipart(form)))?.forbiddenCharacter?.field
                == .multipartName(index: 0))
    }

    /// The session manager runs the check before libcurl sees the request: against a port nothing listens on, the
    /// error is the forbidden character, not a refused connection.
    @Test func theSessionRefusesBeforeConnecting() async throws {
        let session = SessionManager()
        defer { session.shutdown() }
        let request = HTTPRequest(url: "http://127.0.0.1:9/x", headers: ["X-Token": "a\r\nDELETE /admin HTTP/1.1"])
        await #expect(throws: HTTPError.self) {
            do {
                _ = try await session.perform(request)
            } catch let error as HTTPError {
                #expect(error.reason == .forbiddenCharacter)
                #expect(error.forbiddenCharacter?.field == .headerValue(name: "X-Token"))
                throw error
            }
        }
    }
}
