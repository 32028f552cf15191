public import APITestSupport
import Foundation

/// An authentication scheme that libcurl runs for a request, beyond the headers the request carries (basic and
/// bearer credentials are plain `Authorization` headers and need none of this).
public enum HTTPAuthentication: Sendable, Hashable {
    /// HTTP Digest (RFC 7616): libcurl answers the server's challenge.
    case digest(username: String, password: String)
    /// NTLM: libcurl runs the handshake on one connection.
    case ntlm(username: String, password: String)
    /// AWS Signature Version 4, computed by libcurl over the method, URL, signed headers and body.
    case awsSigV4(AWSSigV4Credentials<String>)
    /// Credentials for the URL's host from a netrc file: `~/.netrc` when `file` is nil.
    case netrc(file: String?)

    /// Whether libcurl signs the request itself (AWS Signature Version 4): then it must see the body in memory and
    /// no header line that is not sent.
    public var signsRequest: Bool {
        if case .awsSigV4 = self { true } else { false }
    }
}

// MARK: - libcurl's parameter

extension AWSSigV4Credentials where Field == String {
    /// libcurl's `CURLOPT_AWS_SIGV4` parameter: `aws:amz:<region>:<service>`.
    var curlParameter: String { "aws:amz:\(region):\(service)" }
}

// MARK: - Header lines

extension HTTPRequest {
    /// The header lines its authentication adds to the request's own, as `Name: value`: for AWS Signature Version
    /// 4, the session token of temporary credentials (`x-amz-security-token`) and, for S3, the payload's SHA-256
    /// (`x-amz-content-sha256`, which S3 requires and libcurl 7.88 does not send; curl 8.x does). Both are signed
    /// with the request. The transfer and the reproduce command both take them from here.
    public var authenticationHeaderLines: [String] {
        guard case .awsSigV4(let signature) = authentication else { return [] }
        var lines: [String] = []
        if let token = signature.sessionToken, !headers.contains("x-amz-security-token") {
            lines.append("x-amz-security-token: \(token)")
        }
        if signature.service.lowercased() == "s3", !headers.contains("x-amz-content-sha256") {
            // The bytes libcurl signs: a signed request's body is in memory.
            let payload: Data = if case .data(let data) = body { data } else { Data() }
            lines.append("x-amz-content-sha256: \(BodyDigest.sha256(payload))")
        }
        return lines
    }
}
