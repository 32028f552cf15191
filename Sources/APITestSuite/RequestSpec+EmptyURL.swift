// MARK: - An empty URL

extension RequestSpec {
    /// The error of a `url` that is empty or blank (only spaces), whether written so (`url: ""`, `url: " "`, reported
    /// when the suite loads) or rendered so (`url: "{{ path }}"` with an empty `path`, reported when the request is
    /// built): `'url' is empty` or `'url' is blank`.
    package static func emptyURLMessage(_ url: String) -> String {
        url.isEmpty ? "'url' is empty" : "'url' is blank"
    }

    /// What to write for the base URL itself, beside ``emptyURLMessage(_:)``. RFC 3986 resolves `./` to the base URL
    /// (its path made to end in `/`) and `/` to the root of its host, which is the base URL only when it has no path.
    package static func emptyURLNote(hasBaseURL: Bool) -> String {
        hasBaseURL
            ? "write './' for the baseURL itself; '/' is the root of its host, which drops the baseURL's path"
            : "write an absolute http(s) URL, or add a 'baseURL' and a path relative to it ('./' for the baseURL itself)"
    }

    /// Whether `url` (written or rendered) is empty or only spaces, tabs and line breaks: no URL, which would
    /// otherwise silently resolve to the base URL.
    package static func isBlankURL(_ url: String) -> Bool {
        url.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }
}
