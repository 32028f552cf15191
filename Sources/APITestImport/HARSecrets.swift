import APITestSuiteWriting

/// The secrets of a HAR archive (and those typed into a Postman collection's auth settings and headers), turned into
/// environment variables as they are met: each distinct value of a credential header, cookie or query parameter gets
/// a name derived from where it was found, and the texts written into the suite carry `{{ env.NAME }}` instead of
/// the value.
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

    /// Where a variable's value was met: the value and the text that stood right before it in its source (`Bearer `,
    /// `session=`, `access_token=`, `ann:`; empty for a whole value), for an importer that shows its source with the
    /// value replaced (`import curl`'s comment).
    struct Use {
        /// The variable's name.
        var name: String
        /// The value.
        var value: String
        /// The text before the value in its source.
        var lead: String
    }

    /// The variables, in the order they were met.
    private(set) var variables: [Variable] = []
    /// Every placeholder made, in order.
    private(set) var uses: [Use] = []
    /// The index in ``variables`` of each source and value met, so that a value is looked up in constant time.
    private var indexes: [SourceValue: Int] = [:]
    /// The names taken.
    private var names: Set<String> = []
    /// The next number to try after each stem that is taken (`AUTHORIZATION` → 3 once `AUTHORIZATION_2` is).
    private var nextNumbers: [String: Int] = [:]

    /// A value and where it was found.
    private struct SourceValue: Hashable {
        var source: String
        var value: String
    }

    /// Whether a header or parameter `name` holds a credential (``CredentialNames``, the rule every importer uses).
    static func isCredential(_ name: String) -> Bool {
        CredentialNames.isCredential(name)
    }

    /// Keeps `name` from being given to a value (an environment variable the suite already reads).
    mutating func reserve(_ name: String) {
        names.insert(name)
    }

    /// `{{ env.NAME }}` for `value` found at `source` in entry `entry`, the name derived from `base`; `lead` is the
    /// text right before the value in its source (``Use``).
    mutating func placeholder(for value: String, base: String, source: String, entry: Int, lead: String = "") -> String
    {
        let name = variableName(for: value, base: base, source: source, entry: entry)
        uses.append(Use(name: name, value: value, lead: lead))
        return "{{ env.\(name) }}"
    }

    /// The variable's name for `value` found at `source`, made when the value is new.
    private mutating func variableName(for value: String, base: String, source: String, entry: Int) -> String {
        let key = SourceValue(source: source, value: value)
        if let index = indexes[key] {
            // Entries are met in order, so the list stays sorted and its last element is the only one to check.
            if variables[index].entries.last != entry { variables[index].entries.append(entry) }
            return variables[index].name
        }
        let stem = Self.environmentName(base)
        var name = stem
        if names.contains(name) {
            var counter = nextNumbers[stem] ?? 2
            repeat {
                name = "\(stem)_\(counter)"
                counter += 1
            } while names.contains(name)
            nextNumbers[stem] = counter
        }
        names.insert(name)
        indexes[key] = variables.count
        variables.append(Variable(name: name, source: source, value: value, entries: [entry]))
        return name
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

    /// The value of header `name` as written into the suite: a placeholder for a credential, the rest escaped
    /// (``TemplateLiteral``).
    mutating func header(_ name: String, _ value: String, entry: Int) -> String {
        let lower = name.lowercased()
        switch lower {
        case "authorization", "proxy-authorization":
            // The scheme stays readable: `Bearer {{ env.AUTHORIZATION }}`.
            let parts = value.split(separator: " ", maxSplits: 1)
            let source = "header \(name)"
            if parts.count == 2, parts[0].allSatisfy({ $0.isLetter || $0 == "-" }) {
                return TemplateLiteral.joined([
                    .literal("\(parts[0]) "),
                    .placeholder(
                        placeholder(
                            for: String(parts[1]), base: name, source: source, entry: entry, lead: "\(parts[0]) ")),
                ])
            }
            return placeholder(for: value, base: name, source: source, entry: entry)
        case "cookie":
            var pieces: [TemplateLiteral.Piece] = []
            for (index, pair) in value.split(separator: ";").enumerated() {
                if index > 0 { pieces.append(.literal("; ")) }
                let text = String(pair).trimmingSpaces
                guard let equals = text.firstIndex(of: "=") else {
                    pieces.append(.literal(text))
                    continue
                }
                let cookie = String(text[..<equals])
                let cookieValue = String(text[text.index(after: equals)...])
                pieces.append(.literal(cookie + "="))
                pieces.append(
                    .placeholder(
                        placeholder(
                            for: cookieValue, base: "COOKIE_" + cookie, source: "cookie \(cookie)", entry: entry,
                            lead: cookie + "=")))
            }
            return TemplateLiteral.joined(pieces)
        default:
            guard Self.isCredential(lower) else { return TemplateLiteral.escaped(value) }
            return placeholder(for: value, base: name, source: "header \(name)", entry: entry)
        }
    }

    /// `url` with the password of its user information (`https://ann:pw@host/`) and the values of its credential
    /// query parameters replaced, the rest escaped (``TemplateLiteral``).
    mutating func url(_ url: String, entry: Int) -> String {
        var pieces: [TemplateLiteral.Piece] = []
        var rest = Substring(url)
        if let schemeEnd = url.firstRange(of: "://") {
            let authorityEnd = url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
            let authority = url[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"),
                authority.index(after: colon) < at
            {
                let user = authority[..<colon]
                let host = authority[authority.index(after: at)...]
                pieces.append(.literal(String(url[..<colon]) + ":"))
                pieces.append(
                    .placeholder(
                        placeholder(
                            for: String(authority[authority.index(after: colon)..<at]), base: "URL_PASSWORD",
                            source: "password of the URL user \(user)@\(host)", entry: entry, lead: user + ":")))
                rest = url[at...]
            }
        }
        guard let question = rest.firstIndex(of: "?") else {
            pieces.append(.literal(String(rest)))
            return TemplateLiteral.joined(pieces)
        }
        let fragmentStart = rest[question...].firstIndex(of: "#") ?? rest.endIndex
        let query = rest[rest.index(after: question)..<fragmentStart]
        pieces.append(.literal(String(rest[...question])))
        for (index, pair) in query.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { pieces.append(.literal("&")) }
            guard let equals = pair.firstIndex(of: "="), Self.isCredential(String(pair[..<equals])),
                equals < pair.index(before: pair.endIndex)
            else {
                pieces.append(.literal(String(pair)))
                continue
            }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            pieces.append(.literal(name + "="))
            pieces.append(
                .placeholder(
                    placeholder(
                        for: value, base: name, source: "query parameter \(name)", entry: entry, lead: name + "=")))
        }
        pieces.append(.literal(String(rest[fragmentStart...])))
        return TemplateLiteral.joined(pieces)
    }
}
