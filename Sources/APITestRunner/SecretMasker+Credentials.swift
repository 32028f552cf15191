import APITestHTTP
import APITestSupport
import Foundation

// MARK: - Credentials

extension SecretMasker {
    /// The shortest credential part masked on its own: shorter ones would mask unrelated text everywhere.
    static let shortestCredential = 4

    /// The credentials a request carries, to mask wherever they show up again (a server echoing its request, a
    /// failure message): of each `Authorization` and `Proxy-Authorization` header the token after the scheme,
    /// and for `Basic` also the decoded `user:password` and the password; of a URL's `user:password@` the
    /// password and the `Basic` token libcurl makes of it. Whatever their source: a credential is a secret even
    /// when the suite writes it out.
    static func credentials(of request: HTTPRequest) -> [String] {
        var found: [String] = []
        for field in request.headers where Self.isCredentialHeader(field.name) {
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
        return found.filter { $0.utf8.count >= shortestCredential }
    }

    /// Whether `name` is `Authorization` or `Proxy-Authorization`, in any case; no lowercased copy per header.
    private static func isCredentialHeader(_ name: String) -> Bool {
        name.caseInsensitiveEquals("authorization") || name.caseInsensitiveEquals("proxy-authorization")
    }
}
