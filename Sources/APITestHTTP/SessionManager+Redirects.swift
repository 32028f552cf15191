import APITestSecurity
import APITestSupport
import Foundation

// MARK: - Redirects followed hop by hop

extension SessionManager {
    /// The redirect statuses followed (RFC 9110 §15.4): 300, 304 and 305 are answers, not redirects.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// `CURLE_TOO_MANY_REDIRECTS`: a run past the limit fails as libcurl's own following does.
    static let tooManyRedirectsCode = 47

    /// Follows the redirects of `original` one transfer a hop, as libcurl would, except that on the first hop to
    /// another origin (scheme, host or port) the fields bound to the origin are left out, with `Authorization`,
    /// `Cookie` and the authentication libcurl runs (which libcurl itself sends only to the first origin): they are
    /// not sent again, even on a hop back. The method and body change as libcurl changes them: `303` turns any
    /// method but `HEAD` into a `GET` without body, `301` and `302` turn a `POST` into one; `307` and `308` keep
    /// both. Pins keep applying to the hosts of the first request only, as with libcurl's following.
    func performFollowingRedirects(_ original: HTTPRequest) async throws -> HTTPResponse {
        var request = original
        request.followRedirects = false
        let origin = Origin(url: original.url)
        var crossed = false
        var hops = 0
        var elapsed = Duration.zero
        var recorded: [HTTPResponse.RedirectHop] = []
        while true {
            var response = try await performOnce(request)
            guard let target = try Self.redirectTarget(of: response, from: request.url) else {
                if hops > 0 {
                    response.redirectCount = hops
                    response.redirectHops = recorded
                    var timings = response.timings
                    for phase in [
                        \TransferTimings.nameLookup, \.connect, \.tlsHandshake, \.preTransfer, \.firstByte, \.total,
                    ] where timings[keyPath: phase] > .zero {
                        timings[keyPath: phase] += elapsed
                    }
                    timings.redirect = elapsed
                    response.timings = timings
                }
                return response
            }
            guard original.maxRedirects < 0 || hops < original.maxRedirects else {
                throw HTTPError(
                    .curl(
                        code: Self.tooManyRedirectsCode,
                        errorBuffer: "Maximum (\(original.maxRedirects)) redirects followed"))
            }
            hops += 1
            elapsed += response.timings.total
            if original.recordsRedirectHops {
                recorded.append(HTTPResponse.RedirectHop(request: request, response: response))
            }
            if hops == 1, var policy = request.security, policy.settings.hosts.isEmpty,
                let host = CurlMultiLoop.host(of: original.url)
            {
                // The pins stay with the first host. Only from the second hop on: the first request keeps the
                // policy it shares with the suite's other requests (and their connections).
                policy.settings.hosts = [host]
                request.security = policy
            }
            request.url = target
            Self.rewriteMethod(of: &request, for: response.statusCode)
            if !crossed, Origin(url: target) != origin {
                crossed = true
                request.leaveOriginBoundFields()
            }
        }
    }

    /// The absolute URL `response` redirects to, or nil when it is not a redirect (or names no place).
    /// - Throws: `HTTPError` when the place is not an `http` or `https` URL (libcurl's redirects allow no other).
    static func redirectTarget(of response: HTTPResponse, from url: String) throws -> String? {
        guard redirectStatuses.contains(response.statusCode),
            let location = response.headers["Location"]?.trimmingCharacters(in: .whitespaces),
            !location.isEmpty
        else { return nil }
        // A server may send spaces or raw UTF-8 in a Location; libcurl percent-encodes them, and so does this.
        let reference = URL(string: location) != nil ? location : Self.percentEncodingUnsafeBytes(location)
        guard let base = URL(string: url), let target = URL(string: reference, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw HTTPError(.unsupportedScheme(url: location)) }
        return target.absoluteString
    }

    /// `text` with every byte that cannot stand in a URL (controls, space, non-ASCII, quotes, angle brackets, braces,
    /// backslash, caret, backtick and bar) percent-encoded.
    static func percentEncodingUnsafeBytes(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case 0x21, 0x23...0x3B, 0x3D, 0x3F...0x5B, 0x5D, 0x5F, 0x61...0x7A, 0x7E:
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += PercentEncoding.escape(byte)
            }
        }
        return result
    }

    /// The method and body of the request that follows a `status` redirect (``RedirectMethodRewrite``'s rule).
    static func rewriteMethod(of request: inout HTTPRequest, for status: Int) {
        guard RedirectMethodRewrite.becomesGET(method: request.method, status: status) else { return }
        request.method = "GET"
        request.body = .none
        var headers = request.headers
        headers.remove(name: "Content-Type")
        headers.remove(name: "Content-Length")
        request.headers = headers
    }

    /// The scheme, host and port of a URL: two URLs of one origin share all three (RFC 6454).
    struct Origin: Equatable {
        var scheme: String?
        var host: String?
        var port: Int?

        init(url: String) {
            let components = URLComponents(string: url)
            scheme = components?.scheme?.lowercased()
            host = CurlMultiLoop.host(of: url)
            port = components?.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }
}

// MARK: - Fields bound to the origin

extension HTTPRequest {
    /// Whether the request carries fields that a redirect to another origin must leave out and libcurl would not:
    /// fields named in `originBoundHeaders`, or an AWS session token (sent as `x-amz-security-token`).
    var hasOriginBoundFields: Bool {
        if !originBoundHeaders.isEmpty { return true }
        if case .awsSigV4(let signature) = authentication, signature.sessionToken != nil { return true }
        return false
    }

    /// Leaves out what only the first origin gets: the fields of `originBoundHeaders`, `Authorization` and
    /// `Cookie`, and the authentication libcurl runs (its credentials, an AWS signature and session token). A
    /// proxy's credentials are the proxy's and stay.
    mutating func leaveOriginBoundFields() {
        let bound = originBoundHeaders
        var kept = HTTPHeaders()
        for field in headers
        where !bound.contains(field.name) && !field.name.caseInsensitiveEquals("authorization")
            && !field.name.caseInsensitiveEquals("cookie")
        {
            kept.add(name: field.name, value: field.value)
        }
        headers = kept
        authentication = nil
        originBoundHeaders = OriginBoundHeaders()
    }
}
