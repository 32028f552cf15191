import Hummingbird

// MARK: - RedirectEndpoints

/// Redirect chains: relative, absolute and to an arbitrary URL.
enum RedirectEndpoints {
    /// Longest chain `/redirect/{n}` accepts.
    static let maximumChain = 1000

    static func routes() -> [Route] {
        [
            Route(["GET"], "/redirect/{n}") { request in
                let remaining = try request.intParameter("n", in: 0...maximumChain)
                guard remaining > 0 else { return Reply.json(["redirected": true]) }
                return redirect(to: "/redirect/\(remaining - 1)", status: .found)
            },
            Route(["GET"], "/absolute-redirect/{n}") { request in
                let remaining = try request.intParameter("n", in: 0...maximumChain)
                guard remaining > 0 else { return Reply.json(["redirected": true]) }
                return redirect(to: "http://\(request.authority)/absolute-redirect/\(remaining - 1)", status: .found)
            },
            Route(["GET"], "/redirect-to") { request in
                guard let url = request.query("url"), !url.isEmpty else {
                    throw DemoError.badRequest("missing query parameter 'url'")
                }
                let code = try request.intQuery("status", default: 302, in: 100...599)
                guard (300...399).contains(code) else {
                    throw DemoError.badRequest("status must be a 3xx code, got \(code)")
                }
                return redirect(to: url, status: Reply.status(code))
            },
        ]
    }

    private static func redirect(to location: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Reply.empty(status: status, headers: headers)
    }
}
