package import APITestHTTP
import APITestJSON
import Foundation

// MARK: - OAuth2TokenExchange

/// A token request as it was sent and what came back, for a step that shows every exchange (`--verbose`): the
/// step that sent it records it beside its own request, masked with the secrets as the request carried them.
package struct OAuth2TokenExchange: Sendable {
    /// The token request as sent.
    package var request: HTTPRequest
    /// The endpoint's response; `nil` when the transfer failed.
    package var response: HTTPResponse?
    /// The request's secrets as it carried them (form-encoded, base64 in a Basic header), for the step's masker.
    package var sentSecrets: [String]

    /// The exchange of `request`, answered with `response`, which carried `sentSecrets`.
    package init(request: HTTPRequest, response: HTTPResponse?, sentSecrets: [String]) {
        self.request = request
        self.response = response
        self.sentSecrets = sentSecrets
    }
}

// MARK: - What the answer holds

extension OAuth2TokenExchange {
    /// The credentials the endpoint's answer holds, whatever its shape: the string value of every field whose name
    /// has `token` or `secret` in it (`access_token`, `refresh_token`, `id_token`, `client_secret`), from a JSON object
    /// or from a form-encoded body (some endpoints answer `access_token=...&token_type=bearer`), as written and
    /// decoded. `--verbose` shows the answer even when it gave no usable token, so these join the step's masker.
    package var responseSecrets: [String] {
        guard let body = response?.body, !body.isEmpty else { return [] }
        func isCredential(_ name: String) -> Bool {
            let lowered = name.lowercased()
            return lowered.contains("token") || lowered.contains("secret")
        }
        if case .object(let object)? = try? JSONParser.parse(body) {
            return object.compactMap { key, value in
                guard isCredential(key), case .string(let text) = value, !text.isEmpty else { return nil }
                return text
            }
        }
        guard let text = String(data: body, encoding: .utf8), text.contains("=") else { return [] }
        var found: [String] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].isEmpty else { continue }
            let name = String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            guard isCredential(name) else { continue }
            let raw = String(parts[1])
            found.append(raw)
            if let decoded = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, decoded != raw {
                found.append(decoded)
            }
        }
        return found
    }
}
