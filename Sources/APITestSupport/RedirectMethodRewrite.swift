// MARK: - The method after a redirect

/// What a redirect does to the method of the request that follows it, as libcurl (and browsers) do: `303` turns any
/// method but `HEAD` into a `GET` without body, `301` and `302` turn a `POST` into one; `307` and `308` keep both.
///
/// The one rule: the HTTP layer's redirects (`SessionManager+Redirects.swift`) follow it, and the HAR report shows a
/// recorded exchange's last request with it (the method and body the redirects left).
package enum RedirectMethodRewrite {
    /// Whether the request that follows a `status` redirect of a `method` request is a `GET` without body.
    package static func becomesGET(method: String, status: Int) -> Bool {
        let method = method.uppercased()
        return switch status {
        case 303: method != "HEAD" && method != "GET"
        case 301, 302: method == "POST"
        default: false
        }
    }
}
