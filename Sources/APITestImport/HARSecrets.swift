/// The secrets of a HAR archive, turned into environment variables as they are met: each distinct value of a
/// credential header, cookie or query parameter gets a name derived from where it was found, and the texts written
/// into the suite carry `{{ env.NAME }}` instead of the value.
struct HARSecrets {
    /// An environment variable standing for one secret value.
    struct Variable {
        /// `AUTHORIZATION`, `COOKIE_SESSION`, `ACCESS_TOKEN`.
        var name: String
        /// Where it was found: `header Authorization`, `cookie session`, `query parameter access_token`.
        var source: String
        /// The value (never written to the suite).
        var value: String
        /// The entries (from 1) it was found in.
        var entries: [Int]
    }

    /// The variables, in the order they were met.
    private(set) var variables: [Variable] = []

    /// Words that mark a header or query parameter name as holding a credential.
    static let credentialWords = [
        "token", "secret", "password", "passwd", "apikey", "api-key", "api_key", "session", "auth", "signature",
        "credential", "csrf", "xsrf", "cookie",
    ]

    /// Whether a header or parameter `name` holds a credential.
    static func isCredential(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["key", "sig", "code"].contains(lower) { return true }
        return credentialWords.contains { lower.contains($0) }
    }

    /// `{{ env.NAME }}` for `value` found at `source` in entry `entry`, the name derived from `base`.
    mutating func placeholder(for value: String, base: String, source: String, entry: Int) -> String {
        if let index = variables.firstIndex(where: { $0.source == source && $0.value == value }) {
            if !variables[index].entries.contains(entry) { variables[index].entries.append(entry) }
            return "{{ env.\(variables[index].name) }}"
        }
        let stem = Self.environmentName(base)
        var name = stem
        var counter = 2
        while variables.contains(where: { $0.name == name }) {
            name = "\(stem)_\(counter)"
            counter += 1
        }
        variables.append(Variable(name: name, source: source, value: value, entries: [entry]))
        return "{{ env.\(name) }}"
    }

    /// `X-Api-Key` → `X_API_KEY`.
    static func environmentName(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let isWord =
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            result += isWord ? String(scalar).uppercased() : "_"
        }
        if result.first?.isNumber ?? true { result = "_" + result }
        return result
    }

    // MARK: - Headers and URLs

    /// The value of header `name` as written into the suite.
    mutating func header(_ name: String, _ value: String, entry: Int) -> String {
        let lower = name.lowercased()
        switch lower {
        case "authorization", "proxy-authorization":
            // The scheme stays readable: `Bearer {{ env.AUTHORIZATION }}`.
            let parts = value.split(separator: " ", maxSplits: 1)
            let source = "header \(name)"
            if parts.count == 2, parts[0].allSatisfy({ $0.isLetter || $0 == "-" }) {
                return "\(parts[0]) " + placeholder(for: String(parts[1]), base: name, source: source, entry: entry)
            }
            return placeholder(for: value, base: name, source: source, entry: entry)
        case "cookie":
            return value.split(separator: ";").map { pair -> String in
                let text = String(pair).trimmingSpaces
                guard let equals = text.firstIndex(of: "=") else { return text }
                let cookie = String(text[..<equals])
                let cookieValue = String(text[text.index(after: equals)...])
                return cookie + "="
                    + placeholder(for: cookieValue, base: "COOKIE_" + cookie, source: "cookie \(cookie)", entry: entry)
            }.joined(separator: "; ")
        default:
            guard Self.isCredential(lower) else { return value }
            return placeholder(for: value, base: name, source: "header \(name)", entry: entry)
        }
    }

    /// `url` with the values of its credential query parameters replaced.
    mutating func url(_ url: String, entry: Int) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: question)..<fragmentStart]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), Self.isCredential(String(pair[..<equals])) else {
                return String(pair)
            }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard !value.isEmpty else { return String(pair) }
            return name + "=" + placeholder(for: value, base: name, source: "query parameter \(name)", entry: entry)
        }
        return String(url[...question]) + pairs.joined(separator: "&") + url[fragmentStart...]
    }
}
