package import APITestHTTP
import APITestSecurity
import APITestSupport
import Foundation

// MARK: - Credentials

extension SecretMasker {
    /// The shortest credential part masked on its own: shorter ones would mask unrelated text everywhere.
    package static let shortestCredential = 4

    /// The credentials a request carries, to mask wherever they show up again (a server echoing its request, a
    /// failure message): of each `Authorization` and `Proxy-Authorization` header the token after the scheme,
    /// and for `Basic` also the decoded `user:password` and the password; of a URL's `user:password@` the
    /// password and the `Basic` token libcurl makes of it; the whole value of each field derived from a secret
    /// (`HTTPRequest.originBoundHeaders`, as sent); the passwords of digest and NTLM, AWS's secret key and
    /// session token, a netrc file's passwords and a proxy's. Whatever their source: a credential is a secret even
    /// when the suite writes it out.
    package static func credentials(of request: HTTPRequest) -> [String] {
        var found: [String] = []
        // A field whose value derives from a secret, as it goes on the wire: an echo of it in another encoding
        // (base64, hex) is found from these bytes.
        // The fields read once, as an array: walking `HTTPHeaders` itself asks for its storage at every step.
        let fields = request.headers.fields
        let originBound = request.originBoundHeaders
        if !originBound.isEmpty {
            for field in fields where originBound.contains(field.name) { found.append(field.value) }
        }
        for field in fields where Self.isCredentialHeader(field.name) {
            let parts = field.value.split(separator: " ", maxSplits: 1)
            let token = parts.count == 2 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : field.value
            found.append(token)
            if parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: token),
                let pair = String(data: data, encoding: .utf8)
            {
                found.append(pair)
                if let colon = pair.firstIndex(of: ":") { found.append(String(pair[pair.index(after: colon)...])) }
            }
        }
        // Only a URL with `@` can carry `user:password@`; parsing every URL to find out costs more than the rest.
        if request.url.withUTF8Bytes({ $0.contains(UInt8(ascii: "@")) }),
            let components = URLComponents(string: request.url),
            let password = components.password
        {
            let user = components.user ?? ""
            found.append(password)
            found.append(Data("\(user):\(password)".utf8).base64EncodedString())
        }
        // Credentials libcurl uses without a header the request holds: an echo of what it sent, or the command
        // that reproduces the request, would show them.
        switch request.authentication {
        case .digest(let user, let password), .ntlm(let user, let password):
            found += [password, "\(user):\(password)"]
        case .awsSigV4(let signature):
            found.append(signature.secretKey)
            if let token = signature.sessionToken { found.append(token) }
        case .netrc(let file):
            found += NetrcSecrets.secrets(in: file)
        case nil:
            break
        }
        // The environment's proxies are in every suite's masker from the start (`SuiteRuntime`).
        if let proxy = request.transport.proxy { found += proxyCredentials(proxy) }
        return found.filter { $0.utf8.count >= shortestCredential }
    }

    /// The password of a proxy URL's `user:password@` (as written and percent-decoded, as libcurl sends it) and
    /// the decoded `user:password`, whose base64 is the `Proxy-Authorization: Basic` token.
    static func proxyCredentials(_ proxy: String) -> [String] {
        var rest = Substring(proxy)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard let at = rest.lastIndex(of: "@") else { return [] }
        let userinfo = rest[..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return [] }
        let user = String(userinfo[..<colon])
        let password = String(userinfo[userinfo.index(after: colon)...])
        let decodedUser = user.removingPercentEncoding ?? user
        let decodedPassword = password.removingPercentEncoding ?? password
        return [password, decodedPassword, "\(decodedUser):\(decodedPassword)"]
    }

    /// The credentials of the proxies libcurl takes from the environment when a request names none (filtered like a
    /// request's credentials: too short a part is not masked on its own).
    package static let environmentProxyCredentials: [String] = {
        let environment = ProcessInfo.processInfo.environment
        return ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].compactMap { environment[$0] }
            .flatMap(proxyCredentials).filter { $0.utf8.count >= shortestCredential }
    }()

    /// Whether `name` is `Authorization` or `Proxy-Authorization`, in any case; no lowercased copy per header.
    private static func isCredentialHeader(_ name: String) -> Bool {
        name.caseInsensitiveEquals("authorization") || name.caseInsensitiveEquals("proxy-authorization")
    }
}
