import APITestHTTP
import APITestSupport
import Foundation
import Testing

/// The header lines libcurl is given beside a request's own for AWS Signature Version 4 (it signs them with the
/// rest): the session token, and for S3 the payload hash that S3 requires and libcurl 7.88 does not add.
@Suite struct AuthenticationHeaderLineTests {
    /// A request signed for `service`, with `body` and `headers`.
    func request(
        service: String, sessionToken: String? = nil, body: HTTPRequest.Body = .none, headers: HTTPHeaders = [:]
    ) -> HTTPRequest {
        var request = HTTPRequest(method: "PUT", url: "http://127.0.0.1/bucket/key", headers: headers, body: body)
        request.authentication = .awsSigV4(
            .init(
                accessKey: "AKID", secretKey: "secret", sessionToken: sessionToken, region: "us-east-1",
                service: service))
        return request
    }

    @Test func s3GetsThePayloadHashOfItsBody() {
        let lines = request(service: "s3", body: .data(Data("hello world".utf8))).authenticationHeaderLines
        #expect(lines == ["x-amz-content-sha256: b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"])
    }

    @Test func s3WithoutABodyGetsTheHashOfNothing() {
        // S3 wants the header on a GET or an empty PUT too: the SHA-256 of no bytes.
        let lines = request(service: "S3", sessionToken: "T").authenticationHeaderLines
        #expect(
            lines == [
                "x-amz-security-token: T",
                "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ])
    }

    @Test func aHashTheRequestCarriesIsLeftAlone() {
        // UNSIGNED-PAYLOAD, or a hash written by hand: libcurl signs the request's own value.
        let lines = request(
            service: "s3", body: .data(Data("x".utf8)), headers: ["X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD"]
        ).authenticationHeaderLines
        #expect(lines.isEmpty)
    }

    @Test func otherServicesGetNoPayloadHeader() {
        #expect(request(service: "execute-api").authenticationHeaderLines.isEmpty)
        #expect(request(service: "sts", sessionToken: "T").authenticationHeaderLines == ["x-amz-security-token: T"])
        var digest = request(service: "s3")
        digest.authentication = .digest(username: "u", password: "p")
        #expect(digest.authenticationHeaderLines.isEmpty)
    }
}
